import type { FastifyInstance, FastifyRequest } from 'fastify';
import formBody from '@fastify/formbody';
import { ApiError, badRequest } from '../errors.ts';

export const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * The interface sends JSON, form-urlencoded bodies (sales-void), JSON inside text/plain (charge), and JSON
 * bodies on GET. Browsers cannot send a GET body, so GET routes read the same fields from the query string;
 * the body's fields win where both name one.
 */
export async function registerBodyParsers(app: FastifyInstance): Promise<void> {
  await app.register(formBody, { bodyLimit: BODY_LIMIT_BYTES });

  app.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (_request, text, done) => {
    if (String(text).trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(String(text)));
    } catch {
      done(badRequest('The text/plain body must hold a JSON object.'), undefined);
    }
  });

  // A callback hook, not an async one: nearly every request passes straight through, without a promise.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.method !== 'GET' || !hasBody(request)) return done();
    readRaw(request)
      .then((text) => {
        request.query = { ...(request.query as object), ...parseGetBody(request, text) };
      })
      .then(() => done(), (error: Error) => done(error));
  });
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
    if (size > BODY_LIMIT_BYTES) throw new ApiError(413, 'The body is too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseGetBody(request: FastifyRequest, text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const type = request.headers['content-type'] ?? '';
  if (type.startsWith('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest('The body is not valid JSON.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest('The body must be a JSON object.');
  return parsed as Record<string, unknown>;
}
