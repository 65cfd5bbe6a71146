import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.ts';
import { ApiError, badRequest, conflict } from '../errors.ts';
import { digest } from '../secrets.ts';
import type { Store } from '../store/store.ts';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';

export const INVALID_KEY_MESSAGE = 'Idempotency-Key must be 1 to 255 printable characters.';
export const KEY_REUSED_MESSAGE = 'This Idempotency-Key was already used with a different request: use a new key for a new request.';
export const KEY_IN_PROGRESS_MESSAGE = 'A request with this Idempotency-Key is still being processed: retry in a moment.';

const KEY_FORMAT = /^[\x20-\x7E]{1,255}$/;

interface KeyedRequest {
  clientId: string;
  key: string;
  fingerprint: string;
  /** Set once this request claimed the key: the claimed row's `created_at`. */
  claimedAt?: string;
  /** The claim was completed or released. */
  settled: boolean;
}

/**
 * Every POST in the scope this is added to honours an `Idempotency-Key` header, as Stripe does: a retry with
 * the same key and request gets the first answer again (with `idempotent-replayed: true`) and causes nothing
 * twice. Add it after `requireClient`, since keys are per client. Only requests that reach their handler are
 * remembered (a body refused by validation is not), and answers with a status of 500 or more are not: the key
 * is released so a retry runs again.
 */
export function honourIdempotencyKeys(app: FastifyInstance, store: Store, clock: Clock): void {
  const keyed = new WeakMap<FastifyRequest, KeyedRequest>();

  // The fingerprint is taken before validation, which may coerce the body, add defaults or drop fields.
  // Callback hooks: requests without the header pass straight through, without a promise.
  app.addHook('preValidation', (request, _reply, done) => {
    const key = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (request.method !== 'POST' || key === undefined) return done();
    if (typeof key !== 'string' || !KEY_FORMAT.test(key)) return done(badRequest(INVALID_KEY_MESSAGE));
    keyed.set(request, { clientId: request.client.id, key, fingerprint: fingerprint(request), settled: false });
    done();
  });

  app.addHook('preHandler', (request, reply, done) => {
    const state = keyed.get(request);
    if (!state) return done();
    store.idempotencyKeys.claim(state.clientId, state.key, state.fingerprint, clock.now()).then(
      (result) => {
        if (result.claimed) {
          state.claimedAt = result.createdAt;
          return done();
        }
        const { held } = result;
        if (held.fingerprint !== state.fingerprint) return done(new ApiError(422, KEY_REUSED_MESSAGE));
        if (held.status_code === null || held.body === null) return done(conflict(KEY_IN_PROGRESS_MESSAGE));
        // Answering from a hook: the reply is sent and `done` is not called.
        replay(reply, held.status_code, held.body);
      },
      (error: Error) => done(error),
    );
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const state = keyed.get(request);
    if (!state?.claimedAt || state.settled) return done(null, payload);
    state.settled = true;
    const text = payloadText(payload);
    const { clientId, key, claimedAt } = state;
    const keys = store.idempotencyKeys;
    const record =
      reply.statusCode >= 500 || text === undefined
        ? keys.release(clientId, key, claimedAt)
        : keys.complete(clientId, key, claimedAt, reply.statusCode, text);
    // The answer is recorded before it leaves, so a retry that follows it always finds it.
    record
      .catch(async (error: unknown) => {
        request.log.error({ err: error }, 'could not record the answer of an idempotency key');
        await keys.release(clientId, key, claimedAt).catch(() => {});
      })
      .then(() => done(null, payload));
  });

  // A claimed request that ended without passing onSend (it should not happen) must not hold its key for a day.
  app.addHook('onResponse', (request, _reply, done) => {
    const state = keyed.get(request);
    if (!state?.claimedAt || state.settled) return done();
    state.settled = true;
    store.idempotencyKeys
      .release(state.clientId, state.key, state.claimedAt)
      .catch((error: unknown) => request.log.error({ err: error }, 'could not release an idempotency key'))
      .then(() => done());
  });
}

function replay(reply: FastifyReply, statusCode: number, body: string): FastifyReply {
  const type = /^\s*[[{]/.test(body) ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8';
  return reply.code(statusCode).header('content-type', type).header(REPLAYED_HEADER, 'true').send(body);
}

/** The exact text sent, or undefined for a payload that is not text (a stream): that answer is not kept. */
function payloadText(payload: unknown): string | undefined {
  if (payload === undefined || payload === null) return '';
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return undefined;
}

/** SHA-256 of the method, the path with its query, and the parsed body as canonical JSON. */
export function fingerprint(request: FastifyRequest): string {
  const body = request.body === undefined ? '' : canonicalJson(request.body);
  return digest(JSON.stringify([request.method, request.url, body]));
}

/** JSON with every object's keys sorted, so the same fields in another order give the same text. */
export function canonicalJson(value: unknown): string {
  if (Buffer.isBuffer(value)) return JSON.stringify(value.toString('base64'));
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const fields = Object.keys(record)
      .filter((name) => record[name] !== undefined)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${canonicalJson(record[name])}`);
    return `{${fields.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
