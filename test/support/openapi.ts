import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import SwaggerParser from '@apidevtools/swagger-parser';

export type JsonSchema = Record<string, any>;

export interface DeclaredOperation {
  method: string;
  /** As in the document, relative to the server URL: `/customers/{customerId}`. */
  path: string;
  operation: JsonSchema;
}

const API_PREFIX = '/api/v1';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** A copy of the document with every `$ref` replaced by what it names, by @apidevtools/swagger-parser. */
export async function dereference(document: JsonSchema): Promise<JsonSchema> {
  return (await SwaggerParser.dereference(structuredClone(document) as never)) as JsonSchema;
}

export function declaredOperations(plain: JsonSchema): DeclaredOperation[] {
  return Object.entries<JsonSchema>(plain['paths']).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      method: method.toUpperCase(),
      path,
      operation: item[method],
    })),
  );
}

/**
 * What the OpenAPI document promises about answers, checked against answers received: the status is one the
 * operation declares, and a JSON body matches the declared schema. A path no operation declares must get the
 * envelope's 404.
 */
export class DeclaredAnswers {
  private readonly ajv = (addFormats as unknown as (ajv: Ajv2020) => Ajv2020)(
    new Ajv2020({ strict: false, allErrors: true }),
  );
  private readonly routes: { method: string; pattern: RegExp; declared: DeclaredOperation }[];
  private readonly validators = new Map<JsonSchema, ValidateFunction>();
  private readonly notFound: JsonSchema;

  /** What `document` declares, once its references are resolved. */
  static async of(document: JsonSchema): Promise<DeclaredAnswers> {
    return new DeclaredAnswers(await dereference(document));
  }

  private constructor(plain: JsonSchema) {
    // As the service routes: a path written out (…/export.csv) before one with a parameter in its place (…/{id}).
    const parameters = (path: string) => (path.match(/\{/g) ?? []).length;
    const operations = declaredOperations(plain).sort((a, b) => parameters(a.path) - parameters(b.path));
    this.routes = operations.map((declared) => ({
      method: declared.method,
      pattern: new RegExp(`^${declared.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      declared,
    }));
    this.notFound = plain['components'].schemas.Failure;
  }

  /** What is wrong with this answer to `method url` (a path of the service), or undefined when it is as declared. */
  problemsWith(
    method: string,
    url: string,
    answer: { status: number; headers: Record<string, unknown>; text: string },
  ): string | undefined {
    const pathname = new URL(url, 'http://x').pathname;
    if (!pathname.startsWith(`${API_PREFIX}/`) || !METHODS.includes(method.toLowerCase())) return undefined;
    const path = pathname.slice(API_PREFIX.length);
    if (path === '/openapi.json') return undefined;
    const route = this.routes.find(
      (candidate) => candidate.method === method.toUpperCase() && candidate.pattern.test(path),
    );
    const where = `${method} ${url} answered ${answer.status} ${answer.text.slice(0, 300)}`;
    let schema: JsonSchema | undefined;
    if (!route) {
      if (answer.status !== 404) return `no operation declares ${method} ${path}, yet it did not answer 404: ${where}`;
      schema = this.notFound;
    } else {
      const response = route.declared.operation['responses'][String(answer.status)];
      if (!response)
        return `${route.declared.method} ${route.declared.path} does not declare status ${answer.status}: ${where}`;
      if (!response.content)
        return answer.text === ''
          ? undefined
          : `status ${answer.status} is declared without a body, yet one came: ${where}`;
      schema = response.content['application/json']?.schema;
      if (!schema) return undefined;
    }
    if (!/^application\/json/.test(String(answer.headers['content-type'] ?? ''))) return `not JSON: ${where}`;
    let validate = this.validators.get(schema);
    if (!validate) this.validators.set(schema, (validate = this.ajv.compile(schema)));
    if (validate(JSON.parse(answer.text))) return undefined;
    return `the answer does not match the declared schema (${this.ajv.errorsText(validate.errors)}): ${where}`;
  }
}
