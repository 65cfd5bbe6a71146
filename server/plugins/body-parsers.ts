import type { FastifyInstance, FastifyRequest } from 'fastify';
import formBody from '@fastify/formbody';
import { Refusal, invalid } from '../domain/refusals.ts';
import { describeValidation, type ValidationIssue } from './validation-messages.ts';
import { getBodyValidator } from './validation.ts';
import { decodeQueryText } from './query-text.ts';

export const BODY_LIMIT_BYTES = 64 * 1024;
/** Deeper JSON is no request of ours; refusing it early keeps every walk over a body short. */
export const MAX_JSON_DEPTH = 32;

export const TOO_DEEP = `The body nests objects or arrays more than ${MAX_JSON_DEPTH} levels deep.`;
export const NOT_JSON = 'The body is not valid JSON.';
export const NOT_AN_OBJECT = 'The body must be a JSON object.';

/**
 * The interface sends JSON, form-urlencoded bodies (sales-void), JSON inside text/plain (charge), and JSON
 * bodies on GET. Browsers cannot send a GET body, so GET routes read the same fields from the query string;
 * the body's fields win where both name one.
 */
export async function registerBodyParsers(app: FastifyInstance): Promise<void> {
  await app.register(formBody, { bodyLimit: BODY_LIMIT_BYTES });

  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (_request, text, done) => {
    const body = String(text);
    // No fields at all, like no body: the call's own rules then say what is missing.
    if (body.trim() === '') return done(null, {});
    try {
      done(null, parseJson(body));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  app.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (_request, text, done) => {
    if (String(text).trim() === '') return done(null, {});
    try {
      done(null, parseJson(String(text)));
    } catch (error) {
      done(error instanceof Refusal && error.message === NOT_JSON ? invalid('The text/plain body must hold a JSON object.') : (error as Error), undefined);
    }
  });

  // A callback hook, not an async one: nearly every request passes straight through, without a promise.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.method !== 'GET' || !hasBody(request)) return readText(request, done);
    readRaw(request)
      .then((text) => {
        const fields = parseGetBody(request, text);
        request.query = { ...(request.query as object), ...fields };
      })
      .then(() => readText(request, done), (error: Error) => done(error));
  });
}

/** `JSON.parse` after a nesting check, and refusing `__proto__` and `constructor.prototype` keys. */
export function parseJson(text: string): unknown {
  if (nestingDepth(text) > MAX_JSON_DEPTH) throw invalid(TOO_DEEP);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid(NOT_JSON);
  }
  if (/"(?:__proto__|constructor)"\s*:/.test(text) && hasPoisonedKey(parsed)) throw invalid('The body must not use the keys __proto__ or constructor.');
  return parsed;
}

/** How deep objects and arrays nest in JSON text, read without parsing it (strings are skipped). */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) deepest = Math.max(deepest, ++depth);
    else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return deepest;
}

function hasPoisonedKey(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  for (const key of Object.keys(value)) {
    if (key === '__proto__' || key === 'constructor') return true;
    if (hasPoisonedKey((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/** Where in a request's text a NUL character hides, e.g. `body.name`; databases refuse it, so it is bad input. */
export function findNul(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const key of Object.keys(value)) {
    const inner = (value as Record<string, unknown>)[key];
    // Every request passes through here: a field's path is written out only where it holds a NUL or more fields.
    if (!key.includes('\0') && (typeof inner === 'string' ? !inner.includes('\0') : inner === null || typeof inner !== 'object')) continue;
    const where = key.includes('\0') ? `${path}.${key}` : findNul(inner, `${path}.${key}`);
    if (where) return where;
  }
  return undefined;
}

/**
 * Refuses NUL anywhere, then reads the numbers and booleans of the query string and path as their schemas say. A POST
 * or PUT without a body is an empty object: its call's rules then say what is missing, field by field.
 */
function readText(request: FastifyRequest, done: (error?: Error) => void): void {
  if ((request.method === 'POST' || request.method === 'PUT') && request.body === undefined) request.body = {};
  const where = findNul(request.params, 'path') ?? findNul(request.query, 'query') ?? findNul(request.body, 'body');
  if (where) return done(invalid(`Text must not contain the NUL character (\\u0000); ${where.replace(/\0/g, '\\u0000')} does.`));
  const schema = request.routeOptions.schema;
  if (schema?.querystring) decodeQueryText(request.query, schema.querystring);
  if (schema?.params) decodeQueryText(request.params, schema.params);
  done();
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

async function readRaw(request: FastifyRequest): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT_BYTES) throw new Refusal('body_too_large', 'The body is too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A GET body's fields, checked for their JSON types against the call's querystring schema. */
function parseGetBody(request: FastifyRequest, text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const type = request.headers['content-type'] ?? '';
  if (type.startsWith('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  const parsed = parseJson(text);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalid(NOT_AN_OBJECT);
  const querySchema = request.routeOptions.schema?.querystring;
  if (querySchema) {
    const validate = getBodyValidator(querySchema as object);
    if (!validate(parsed)) throw invalid(describeValidation(validate.errors as ValidationIssue[], 'body'));
  }
  return parsed as Record<string, unknown>;
}
