import { html, raw, type Html } from './html.ts';
import { escapeHtml } from './html.ts';
import { renderPage, type Page } from './layout.ts';

type Json = Record<string, any>;

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];
/** Successes: always shown under their operation, never among the refusals listed once at the top. */
const OWN_ANSWERS = new Set(['200', '204', '304']);

/** The few Markdown marks the document's descriptions use: `code` spans and paragraphs. */
function prose(text: string | undefined): Html {
  if (!text) return html``;
  return raw(
    text
      .split(/\n{2,}/)
      .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/`([^`]+)`/g, '<code>$1</code>')}</p>`)
      .join('\n'),
  );
}

const inline = (text: string | undefined) => raw(escapeHtml(text ?? '').replace(/`([^`]+)`/g, '<code>$1</code>'));

function resolve(document: Json, schema: Json | undefined): Json | undefined {
  const ref = schema?.['$ref'] as string | undefined;
  return ref ? document['components'].schemas[ref.split('/').pop()!] : schema;
}

/** A schema's type as a reader wants it: `integer`, `text`, one of its values, `A or B`. */
function typeOf(schema: Json | undefined): string {
  if (!schema) return 'any';
  if (schema['enum']) return (schema['enum'] as unknown[]).map((value) => JSON.stringify(value)).join(' | ');
  if (schema['anyOf'] ?? schema['oneOf'])
    return ((schema['anyOf'] ?? schema['oneOf']) as Json[]).map(typeOf).join(' or ');
  const type = Array.isArray(schema['type']) ? schema['type'].join(' or ') : schema['type'];
  if (type === 'array') return `array of ${typeOf(schema['items'])}`;
  return String(type ?? 'any').replace('string', 'text');
}

function field(name: string, schema: Json, notes: string[]): Html {
  const limits = [
    schema['default'] !== undefined && `default ${JSON.stringify(schema['default'])}`,
    schema['minimum'] !== undefined && `from ${schema['minimum']}`,
    schema['maximum'] !== undefined && `to ${schema['maximum']}`,
    schema['maxLength'] !== undefined && `at most ${schema['maxLength']} characters`,
  ].filter(Boolean);
  const type = [typeOf(schema), ...notes, ...limits].join(', ');
  return html`<li><code>${name}</code> <span class="type">(${type})</span>${schema['description'] && html` ${inline(schema['description'])}`}</li>`;
}

function parameters(operation: Json): Html {
  const list = (operation['parameters'] ?? []) as Json[];
  if (list.length === 0) return html``;
  return html`<h4>Parameters</h4><ul class="fields">${list.map((parameter) =>
    field(
      parameter['name'],
      { ...parameter['schema'], description: parameter['description'] ?? parameter['schema']?.description },
      [parameter['in'], parameter['required'] ? 'required' : 'optional'],
    ),
  )}</ul>`;
}

function body(document: Json, operation: Json): Html {
  const content = operation['requestBody']?.content as Record<string, Json> | undefined;
  if (!content) return html``;
  const schema = resolve(document, Object.values(content)[0]!['schema']) ?? {};
  const required = new Set<string>(schema['required'] ?? []);
  const fields = Object.entries<Json>(schema['properties'] ?? {});
  return html`<h4>Body</h4><p class="hint">${Object.keys(content).join(', ')}</p><ul class="fields">${fields.map(
    ([name, property]) => field(name, property, [required.has(name) ? 'required' : 'optional']),
  )}</ul>`;
}

/** The operation's own answers: its success, and any refusal not every operation shares (those are listed once). */
function answers(operation: Json, shared: Set<string>): Html {
  const own = Object.entries<Json>(operation['responses'] ?? {}).filter(([status]) => !shared.has(status));
  return html`<h4>Answers</h4><ul class="fields">${own.map(([status, answer]) => html`<li><code>${status}</code> ${inline(answer['description'])}</li>`)}</ul>`;
}

const json = (value: unknown) => html`<pre><code>${JSON.stringify(value, null, 2)}</code></pre>`;

const shellQuoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** The example's request as curl, with the README's `$PAYKIT` (the base URL) and `$AUTH` (id:secret). */
function curl(method: string, path: string, operation: Json): string {
  const parameters = (operation['parameters'] ?? []) as Json[];
  const given = (place: string) => parameters.filter((p) => p['in'] === place && p['example'] !== undefined);
  const url = given('path').reduce(
    (at, p) => at.replace(`{${p['name']}}`, encodeURIComponent(String(p['example']))),
    path,
  );
  const query = given('query')
    .map((p) => `${p['name']}=${encodeURIComponent(String(p['example']))}`)
    .join('&');
  const body = operation['requestBody']?.content?.['application/json']?.example;
  const security = operation['security'] as Json[] | undefined;
  const auth = security === undefined ? ' -u $AUTH' : security.length === 0 ? '' : ' -H "authorization: Bearer $TOKEN"';
  const verb = method === 'get' || (method === 'post' && body !== undefined) ? '' : ` -X ${method.toUpperCase()}`;
  const sent =
    body === undefined ? '' : ` \\\n  -H 'content-type: application/json' -d ${shellQuoted(JSON.stringify(body))}`;
  return `curl${auth}${verb} "$PAYKIT${url}${query ? `?${query}` : ''}"${sent}`;
}

/** The operation's example (server/openapi-examples): what is sent, what comes back, and the call that makes it. */
function example(method: string, path: string, operation: Json): Html {
  const sent = Object.fromEntries(
    ((operation['parameters'] ?? []) as Json[])
      .filter((p) => p['example'] !== undefined)
      .map((p) => [p['name'], p['example']]),
  );
  const sentBody = operation['requestBody']?.content?.['application/json']?.example;
  const answer = operation['responses']?.['200']?.content?.['application/json']?.example;
  const samples = (operation['x-codeSamples'] ?? []) as { label: string; source: string }[];
  if (!sentBody && !answer && samples.length === 0) return html``;
  return html`<details><summary>Example</summary>
${Object.keys(sent).length > 0 && html`<p>Parameters</p>${json(sent)}`}
${sentBody !== undefined && html`<p>Body</p>${json(sentBody)}`}
${answer !== undefined && html`<p>Answer</p>${json(answer)}`}
<p>curl</p><pre><code>${curl(method, path, operation)}</code></pre>
${samples.map((sample) => html`<p>${sample.label}</p><pre><code>${sample.source}</code></pre>`)}
</details>`;
}

function operationSection(document: Json, shared: Set<string>, method: string, path: string, operation: Json): Html {
  return html`<section class="op" id="${operation['operationId']}">
<h3>${operation['summary']}</h3>
<p><span class="method">${method.toUpperCase()}</span> <code>${path}</code></p>
${prose(operation['description'])}
${parameters(operation)}${body(document, operation)}${answers(operation, shared)}${example(method, path, operation)}
</section>`;
}

/**
 * The API reference as plain HTML, from the OpenAPI document: every tag, operation, parameter, body field and
 * example, readable at once on a phone and without script. Searching and "try it" are the interactive reference's
 * (Scalar, at `interactiveUrl`), which costs a 1.2 MB script.
 */
export function apiReferenceTextPage(
  document: Json,
  { documentUrl, interactiveUrl }: { documentUrl: string; interactiveUrl: string },
): Page {
  const operations = Object.entries<Json>(document['paths']).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ method, path, operation: item[method] as Json })),
  );
  const tags = (document['tags'] as { name: string; description: string }[]).map((tag, index) => ({
    ...tag,
    id: `tag-${index + 1}`,
  }));
  // The refusals every operation declares, with the first one's words.
  const shared = Object.entries<Json>(operations[0]?.operation['responses'] ?? {}).filter(
    ([status]) => !OWN_ANSWERS.has(status) && operations.every(({ operation }) => operation['responses']?.[status]),
  );
  const sharedStatuses = new Set(shared.map(([status]) => status));
  const body = html`<p><a href="${interactiveUrl}">Search and try the calls: the interactive reference</a> ·
<a href="${documentUrl}">OpenAPI document (JSON)</a></p>
${prose(document['info'].description)}
<p>Base URL: <code>${document['servers'][0].url}</code></p>
<nav aria-label="Sections"><ul class="links">${tags.map((tag) => html`<li><a href="#${tag.id}">${tag.name}</a></li>`)}</ul></nav>
<h2 id="refusals">Refusals</h2>
<p>Any operation may answer these, with <code>{ "result": false, "message": "…", "code": "…" }</code>:</p>
<ul class="fields">${shared.map(([status, answer]) => html`<li><code>${status}</code> ${inline(answer['description'])}</li>`)}</ul>
${tags.map(
  (tag) => html`<h2 id="${tag.id}">${tag.name}</h2>${prose(tag.description)}
${operations.filter(({ operation }) => operation['tags']?.[0] === tag.name).map(({ method, path, operation }) => operationSection(document, sharedStatuses, method, path, operation))}`,
)}`;
  return renderPage({ title: 'Paykit API reference', body });
}
