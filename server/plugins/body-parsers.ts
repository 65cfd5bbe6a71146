import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Refusal, invalid } from '../domain/refusals.ts';
import { describeValidation, type ValidationIssue } from './validation-messages.ts';
import { getBodyValidator } from './validation.ts';
import { decodeQueryText } from './query-text.ts';
import { DUPLICATE_KEY, checkPercentEscapes, findUnstorableText, parseForm, scanJson, utf8Text } from './text-input.ts';

export const BODY_LIMIT_BYTES = 64 * 1024;
/** Deeper JSON is no request of ours; refusing it early keeps every walk over a body short. */
const MAX_JSON_DEPTH = 32;

const TOO_DEEP = `The body nests objects or arrays more than ${MAX_JSON_DEPTH} levels deep.`;
const NOT_JSON = 'The body is not valid JSON.';
const NOT_AN_OBJECT = 'The body must be a JSON object.';

/**
 * The interface sends JSON, form-urlencoded bodies (sales-void), JSON inside text/plain (charge), and JSON
 * bodies on GET. Browsers cannot send a GET body, so GET routes read the same fields from the query string;
 * the body's fields win where both name one.
 */
export async function registerBodyParsers(app: FastifyInstance): Promise<void> {
  // Bodies arrive as bytes, so that bytes which are not UTF-8 are refused rather than decoded to U+FFFD.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES },
    (_request, bytes, done) => {
      try {
        done(null, parseForm(utf8Text(bytes as Buffer)));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );

  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES },
    (_request, bytes, done) => {
      try {
        const body = utf8Text(bytes as Buffer);
        // No fields at all, like no body: the call's own rules then say what is missing.
        done(null, body.trim() === '' ? {} : parseJson(body));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );

  app.addContentTypeParser(
    'text/plain',
    { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES },
    (_request, bytes, done) => {
      try {
        const text = utf8Text(bytes as Buffer);
        done(null, text.trim() === '' ? {} : parseJson(text));
      } catch (error) {
        done(
          error instanceof Refusal && error.message === NOT_JSON
            ? invalid('The text/plain body must hold a JSON object.')
            : (error as Error),
          undefined,
        );
      }
    },
  );

  // A callback hook, not an async one: nearly every request passes straight through, without a promise.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.method !== 'GET' || !hasBody(request)) return readText(request, done);
    readRaw(request)
      .then((text) => {
        const fields = parseGetBody(request, text);
        request.query = { ...(request.query as object), ...fields };
      })
      .then(
        () => readText(request, done),
        (error: Error) => done(error),
      );
  });
}

/**
 * `JSON.parse` after a nesting check, refusing a key named twice in one object, and `__proto__` and
 * `constructor.prototype` keys.
 */
function parseJson(text: string): unknown {
  const { depth, duplicateKey } = scanJson(text, MAX_JSON_DEPTH);
  if (depth > MAX_JSON_DEPTH) throw invalid(TOO_DEEP);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid(NOT_JSON);
  }
  if (duplicateKey !== undefined) throw invalid(DUPLICATE_KEY(duplicateKey));
  if (/"(?:__proto__|constructor)"\s*:/.test(text) && hasPoisonedKey(parsed))
    throw invalid('The body must not use the keys __proto__ or constructor.');
  return parsed;
}

function hasPoisonedKey(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  for (const key of Object.keys(value)) {
    if (key === '__proto__' || key === 'constructor') return true;
    if (hasPoisonedKey((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/**
 * Refuses text no database would store as sent (NUL, lone surrogates, broken `%`-escapes in the query string)
 * anywhere, then reads the numbers and booleans of the query string and path as their schemas say. A POST or PUT
 * without a body is an empty object: its call's rules then say what is missing, field by field.
 */
function readText(request: FastifyRequest, done: (error?: Error) => void): void {
  if ((request.method === 'POST' || request.method === 'PUT') && request.body === undefined) request.body = {};
  const query = request.url.indexOf('?');
  try {
    if (query >= 0) checkPercentEscapes(request.url.slice(query + 1), 'query string');
  } catch (error) {
    return done(error as Error);
  }
  const problem =
    findUnstorableText(request.params, 'path') ??
    findUnstorableText(request.query, 'query') ??
    findUnstorableText(request.body, 'body');
  if (problem) return done(invalid(problem));
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
  return utf8Text(Buffer.concat(chunks));
}

/** A GET body's fields, checked for their JSON types against the call's querystring schema. */
function parseGetBody(request: FastifyRequest, text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const type = request.headers['content-type'] ?? '';
  if (type.startsWith('application/x-www-form-urlencoded')) return parseForm(text);
  const parsed = parseJson(text);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalid(NOT_AN_OBJECT);
  const querySchema = request.routeOptions.schema?.querystring;
  if (querySchema) {
    const validate = getBodyValidator(querySchema as object);
    if (!validate(parsed)) throw invalid(describeValidation(validate.errors as ValidationIssue[], 'body'));
  }
  return parsed as Record<string, unknown>;
}
