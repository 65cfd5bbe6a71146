import { OPERATION_EXAMPLES } from '../openapi-examples/index.ts';
import { attachExample } from './examples.ts';

type Json = Record<string, any>;
interface Media {
  schema?: Json;
  example?: unknown;
}
interface Parameter {
  in: string;
  required?: boolean;
  schema?: Json;
}
interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { description: string; content?: Record<string, Media> }>;
}

const FAILURE_REF = { $ref: '#/components/schemas/Failure' };
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function* operationsOf(document: Json): Generator<{ method: string; path: string; operation: Operation }> {
  for (const [path, item] of Object.entries<Json>(document['paths'] ?? {})) {
    for (const method of METHODS) if (item[method]) yield { method, path, operation: item[method] as Operation };
  }
}

/**
 * A query parameter taken as a whole number or as text (`limit`, which the interface sends as text in a GET's JSON
 * body) is published as the integer: in a query string both are the same digits, and a generator then types it as
 * every other page size and number.
 */
function asOneType(schema: Json): Json {
  const types = (schema['anyOf'] as Json[] | undefined)?.map((branch) => branch['type']).sort();
  if (types?.length !== 2 || types[0] !== 'integer' || types[1] !== 'string') return schema;
  const { anyOf: _anyOf, ...keywords } = schema;
  return { type: 'integer', ...keywords };
}

/**
 * The operation as code generators (openapi-typescript) read it. A value with a default need not be sent, so
 * they must not ask for it: @fastify/swagger marks every field TypeBox did not wrap in Optional as required,
 * defaults included (the service fills them in as it validates). And one type per query parameter.
 */
function forGenerators(operation: Operation): void {
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in !== 'path' && parameter.schema?.['default'] !== undefined) parameter.required = false;
    if (parameter.in === 'query' && parameter.schema) parameter.schema = asOneType(parameter.schema);
  }
  for (const media of Object.values(operation.requestBody?.content ?? {})) {
    const schema = media.schema;
    const properties: Json = schema?.['properties'] ?? {};
    if (!Array.isArray(schema?.['required'])) continue;
    schema['required'] = (schema['required'] as string[]).filter((name) => properties[name]?.['default'] === undefined);
    if (schema['required'].length === 0) delete schema['required'];
  }
}

/**
 * The document as served: what @fastify/swagger generated, with each schema written once. A body accepted in
 * several content types names one component, and every refusal names the `Failure` component, so the document
 * stays small enough to read and renderers show one model per body. A field with a default is optional. Every
 * operation carries its example (server/openapi-examples) and the paykit/client call that makes it.
 */
export function publishDocument(generated: Json): Json {
  const document = structuredClone(generated);
  const schemas: Json = ((document['components'] ??= {}).schemas ??= {});

  for (const { method, path, operation } of operationsOf(document)) {
    forGenerators(operation);
    for (const response of Object.values(operation.responses)) {
      for (const media of Object.values(response.content ?? {})) {
        if (media.schema?.['title'] !== 'Failure') continue;
        schemas['Failure'] ??= media.schema;
        media.schema = { ...FAILURE_REF };
      }
    }
    const example = OPERATION_EXAMPLES[`${method.toUpperCase()} ${path}`];
    if (example) attachExample(operation, example);
    const contents = Object.values(operation.requestBody?.content ?? {});
    if (contents.length > 1 && operation.operationId) {
      const name = `${operation.operationId[0]!.toUpperCase()}${operation.operationId.slice(1)}Body`;
      schemas[name] = contents[0]!.schema;
      for (const media of contents) media.schema = { $ref: `#/components/schemas/${name}` };
    }
  }
  return document;
}
