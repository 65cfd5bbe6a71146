import type {
  FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler, onSendHookHandler, preHandlerHookHandler, preValidationHookHandler,
} from 'fastify';
import type { Clock } from '../platform/clock.ts';
import { Refusal, conflict, invalid } from '../domain/refusals.ts';
import { digest } from '../platform/secrets.ts';
import { seal, sealingKey, unseal } from './idempotency-seal.ts';
import type { RequestKey } from './request-unit.ts';
import type { Store } from '../store/store.ts';
import { parseBasic } from './basic-auth.ts';
import { isoInstant } from '../domain/instants.ts';

const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
const REPLAYED_HEADER = 'idempotent-replayed';

const INVALID_KEY_MESSAGE = 'Idempotency-Key must be 1 to 255 printable characters.';
const KEY_REUSED_MESSAGE = 'This Idempotency-Key was already used with a different request: use a new key for a new request.';
const KEY_IN_PROGRESS_MESSAGE = 'A request with this Idempotency-Key is still being processed: retry in a moment.';
export const KEY_UNREADABLE_MESSAGE =
  'The first answer to this Idempotency-Key was sealed with a secret key that has been replaced since: use a new key for a new request.';

const KEY_FORMAT = /^[\x20-\x7E]{1,255}$/;

/**
 * Every POST in the scope this is added to honours an `Idempotency-Key` header, as Stripe does: a retry with
 * the same key and request gets the first answer again (with `idempotent-replayed: true`) and causes nothing
 * twice. Add it after `requireClient`, since keys are per client.
 *
 * Exactly once, even across a crash: the first request claims the key under a lease, and the claim rides on the
 * request's unit (request-unit.ts): the handler's first write stores the answer with its change, in the change's one
 * statement or unit. Either both commit or neither does, so a retry finds the answer, or finds a claim whose lease
 * runs out and runs the request itself. An answer no write stored (a refusal, a call that wrote nothing) is recorded
 * as it is sent; answers of 500 or more release the key so a retry runs again. A body refused by validation is not
 * remembered.
 */
export function honourIdempotencyKeys(app: FastifyInstance, store: Store, clock: Clock): void {
  /**
   * Claims of answered failures that could not be released (the database was away or full): released when the key
   * comes back, before it is claimed again, so a retry after the database recovers runs at once instead of waiting
   * out the lease, which is for crashes only.
   */
  const unreleased = new Map<string, string>();
  const slot = (state: RequestKey) => `${state.clientId}:${state.keyDigest}`;
  const forget = (state: RequestKey, claimedAt: string) => {
    // Bounded: past this, the oldest wait out their lease as a crashed request's claim does.
    if (unreleased.size >= 10_000) unreleased.delete(unreleased.keys().next().value!);
    unreleased.set(slot(state), claimedAt);
  };
  const release = (state: RequestKey, claimedAt: string): Promise<void> =>
    store.idempotencyKeys.release(state.clientId, state.keyDigest, claimedAt).then(
      () => void unreleased.delete(slot(state)),
      () => forget(state, claimedAt),
    );
  const releaseLeftOver = async (state: RequestKey): Promise<void> => {
    const claimedAt = unreleased.get(slot(state));
    if (claimedAt !== undefined) await store.idempotencyKeys.release(state.clientId, state.keyDigest, claimedAt);
    unreleased.delete(slot(state));
  };
  // The fingerprint is taken before validation, which may add defaults.
  // Callback hooks: requests without the header pass straight through, without a promise.
  const preValidation: preValidationHookHandler = (request, _reply, done) => {
    const key = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (request.method !== 'POST' || key === undefined) return done();
    if (typeof key !== 'string' || !KEY_FORMAT.test(key)) return done(invalid(INVALID_KEY_MESSAGE));
    const secret = parseBasic(request.headers.authorization)?.secret ?? '';
    request.unit.key = {
      clientId: request.client.id,
      keyDigest: digest(key),
      sealKey: sealingKey(secret, request.client.id, key),
      fingerprint: fingerprint(request),
      settled: false,
    };
    done();
  };

  const preHandler: preHandlerHookHandler = (request, reply, done) => {
    const state = request.unit.key;
    if (!state) return done();
    const now = clock.now();
    releaseLeftOver(state)
      .then(() =>
        store.idempotencyKeys.claim(state.clientId, state.keyDigest, state.fingerprint, now).catch((error: unknown) => {
          // A claim that failed may still have reached the database (its commit did, its answer did not).
          forget(state, isoInstant(now));
          throw error;
        }),
      )
      .then(
      (result) => {
        if (result.claimed) {
          state.claimedAt = result.claimedAt;
          state.reply = reply;
          return done();
        }
        const { held } = result;
        if (held.fingerprint !== state.fingerprint) return done(new Refusal('idempotency_key_reused', KEY_REUSED_MESSAGE));
        if (held.status_code === null || held.body === null) {
          // Retry soon: the first request is nearly always about to finish. (One whose process died holds the key
          // until its lease runs out; a client retrying every second sees 409 until then.)
          return done(conflict(KEY_IN_PROGRESS_MESSAGE, 1));
        }
        const body = unseal(state.sealKey, held.body);
        if (body === undefined) return done(new Refusal('idempotency_key_reused', KEY_UNREADABLE_MESSAGE));
        // Answering from a hook: the reply is sent and `done` is not called.
        replay(reply, held.status_code, body);
      },
      (error: Error) => done(error),
    );
  };


  // Answers no write of the handler stored: a 4xx it threw (its write undone), a 5xx, a call that wrote nothing.
  const onSend: onSendHookHandler = (request, reply, payload, done) => {
    const state = request.unit.key;
    // Stored by the handler's write, with the change, it is settled already.
    if (!state?.claimedAt || state.settled) return done(null, payload);
    state.settled = true;
    const text = payloadText(payload);
    const { clientId, keyDigest, claimedAt } = state;
    const keys = store.idempotencyKeys;
    const record =
      reply.statusCode >= 500 || text === undefined
        ? release(state, claimedAt)
        : keys.complete(clientId, keyDigest, claimedAt, reply.statusCode, seal(state.sealKey, text));
    // The answer is recorded before it leaves, so a retry that follows it always finds it.
    record
      .catch(async (error: unknown) => {
        request.log.error({ err: error }, 'could not record the answer of an idempotency key');
        await release(state, claimedAt);
      })
      .then(() => done(null, payload));
  };

  // A claimed request that ended without passing onSend (it should not happen) must not hold its key.
  const onResponse: onResponseHookHandler = (request, _reply, done) => {
    const state = request.unit.key;
    if (!state?.claimedAt || state.settled) return done();
    state.settled = true;
    void release(state, state.claimedAt).then(() => done());
  };

  // Only POST calls take a key: the hooks are the POST routes' own, so other calls do not pass through them.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST')) return;
    route.preValidation = [...hookList(route.preValidation), preValidation];
    route.preHandler = [...hookList(route.preHandler), preHandler];
    route.onSend = [...hookList(route.onSend), onSend];
    route.onResponse = [...hookList(route.onResponse), onResponse];
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
function fingerprint(request: FastifyRequest): string {
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

/** A route's hooks of one kind as a list (Fastify takes one function or several). */
function hookList<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}
