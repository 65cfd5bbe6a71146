import { OPERATION_EXAMPLES } from '../openapi-examples/index.ts';
import { attachExample } from './examples.ts';

type Json = Record<string, any>;
interface Media { schema?: Json; example?: unknown }
interface Operation {
  operationId?: string;
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
 * The document as served: what @fastify/swagger generated, with each schema written once. A body accepted in
 * several content types names one component, and every refusal names the `Failure` component, so the document
 * stays small enough to read and renderers show one model per body. Every operation carries its example
 * (server/openapi-examples) and the paykit/client call that makes it.
 */
export function publishDocument(generated: Json): Json {
  const document = structuredClone(generated);
  const schemas: Json = (document['components'] ??= {}).schemas ??= {};

  for (const { method, path, operation } of operationsOf(document)) {
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
