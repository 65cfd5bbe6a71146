import { html, type Html } from './html.ts';
import { renderPage, type Page } from './layout.ts';

/** The parts of an OpenAPI 3 document and its JSON Schemas that the reference shows. */
interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}
interface Content {
  content?: Record<string, { schema?: Schema }>;
}
interface Operation {
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: Content;
  responses?: Record<string, Content>;
}
interface OpenApi {
  info?: { title?: string; description?: string; version?: string };
  servers?: { url: string }[];
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const MAX_DEPTH = 8;
const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

export const OPENAPI_JSON_PATH = '/api/v1/openapi.json';

/** The readable API reference, rendered from the service's own OpenAPI document. */
export function apiReferencePage(document: unknown): Page {
  const doc = document as OpenApi;
  const resolve = (schema: Schema | undefined): Schema | undefined => {
    const name = schema?.$ref?.replace('#/components/schemas/', '');
    return name !== undefined ? doc.components?.schemas?.[name] : schema;
  };

  const typeOf = (given: Schema | undefined, depth = 0): string => {
    const schema = resolve(given);
    if (!schema || depth > MAX_DEPTH) return 'any';
    const alternatives = schema.anyOf ?? schema.oneOf;
    if (alternatives) return alternatives.map((s) => typeOf(s, depth + 1)).join(' or ');
    if (schema.allOf) return schema.allOf.map((s) => typeOf(s, depth + 1)).join(' and ');
    if (schema.const !== undefined) return JSON.stringify(schema.const);
    if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' or ');
    if (schema.type === 'array') return `array of ${typeOf(schema.items, depth + 1)}`;
    const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? (schema.properties ? 'object' : 'any'));
    return schema.format ? `${type} (${schema.format})` : type;
  };

  /** The object whose fields a value has, looking through arrays: nested lists show them indented. */
  const objectOf = (given: Schema | undefined): Schema | undefined => {
    const schema = resolve(given);
    if (schema?.type === 'array') return objectOf(schema.items);
    return schema?.properties ? schema : undefined;
  };

  const fieldList = (given: Schema | undefined, depth = 0): Html => {
    const schema = objectOf(given);
    if (!schema || depth > MAX_DEPTH) return html``;
    const required = new Set(schema.required ?? []);
    const items = Object.entries(schema.properties ?? {}).map(([name, property]) => {
      const description = resolve(property)?.description;
      return html`<li><code>${name}</code> <span class="type">${typeOf(property)}</span>, ${required.has(name) ? html`<strong>required</strong>` : 'optional'}${
        description && html` — ${description}`}${fieldList(property, depth + 1)}</li>`;
    });
    return html`<ul class="fields">${items}</ul>`;
  };

  /** A body's fields, or its type when it has none (a bare string or list of strings). */
  const shape = (schema: Schema): Html => (objectOf(schema) ? fieldList(schema) : html`<p class="type">${typeOf(schema)}</p>`);

  const jsonSchemaOf = (part: Content | undefined) => {
    const content = part?.content ?? {};
    return (content['application/json'] ?? Object.values(content)[0])?.schema;
  };

  const basePath = (() => {
    try {
      return new URL(doc.servers?.[0]?.url ?? '').pathname.replace(/\/$/, '');
    } catch {
      return '';
    }
  })();

  const operation = (method: string, path: string, op: Operation): Html => {
    const fullPath = `${basePath}${path}`;
    const parameters = (op.parameters ?? []).map((p) => html`<li><code>${p.name}</code> <span class="type">${typeOf(p.schema)}</span>, in ${p.in}, ${
      p.required ? html`<strong>required</strong>` : 'optional'}${p.description && html` — ${p.description}`}</li>`);
    const body = jsonSchemaOf(op.requestBody);
    const answer = jsonSchemaOf(op.responses?.['200']);
    return html`<section class="op">
<h3 id="${slug(`${method} ${path}`)}"><span class="method">${method.toUpperCase()}</span> <code>${fullPath}</code></h3>
${op.summary && html`<p>${op.summary}</p>`}${op.description && html`<p>${op.description}</p>`}
${parameters.length > 0 && html`<h4>Parameters</h4><ul class="fields">${parameters}</ul>`}
${body && html`<h4>Request body</h4>${shape(body)}`}
${answer && html`<h4>Answer (200)</h4>${shape(answer)}`}
</section>`;
  };

  const byTag = new Map<string, Html[]>();
  for (const [path, operations] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = operations[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? 'Other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operation(method, path, op)]);
    }
  }
  const tags = [...byTag.keys()];
  const body = html`${doc.info?.description && html`<p>${doc.info.description}</p>`}
<p>Version ${doc.info?.version ?? '1'}. Every path below starts with <code>${basePath || '/'}</code>. The same description as an OpenAPI document:
<a href="${OPENAPI_JSON_PATH}">${OPENAPI_JSON_PATH}</a>.</p>
<nav aria-label="Sections"><ul>${tags.map((tag) => html`<li><a href="#${slug(tag)}">${tag}</a></li>`)}</ul></nav>
${tags.map((tag) => html`<section><h2 id="${slug(tag)}">${tag}</h2>${byTag.get(tag)}</section>`)}`;
  return renderPage({ title: 'API reference', body });
}
