import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onResponseHookHandler,
  onSendHookHandler,
  preHandlerHookHandler,
  preValidationHookHandler,
} from 'fastify';
import type { Clock } from '../platform/clock.ts';
import { Refusal, conflict, invalid } from '../domain/refusals.ts';
import { digest } from '../platform/secrets.ts';
import { seal, sealingKey, unseal } from './idempotency-seal.ts';
import type { RequestKey } from './request-unit.ts';
import type { IdempotencyKeyRepository } from '../store/idempotency-keys.ts';
import { parseBasic } from './basic-auth.ts';
import { isoInstant } from '../domain/instants.ts';

const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
const REPLAYED_HEADER = 'idempotent-replayed';

const INVALID_KEY_MESSAGE = 'Idempotency-Key must be 1 to 255 printable characters.';
const KEY_REUSED_MESSAGE =
  'This Idempotency-Key was already used with a different request: use a new key for a new request.';
const KEY_IN_PROGRESS_MESSAGE = 'A request with this Idempotency-Key is still being processed: retry in a moment.';
const KEY_HELD_MESSAGE = (seconds: number) =>
  `A request with this Idempotency-Key has not finished: it may still run on another process, or its process stopped. Retry in ${seconds} seconds, when its hold runs out.`;
export const KEY_UNREADABLE_MESSAGE =
  'The first answer to this Idempotency-Key was sealed with a secret key that has been replaced since: use a new key for a new request.';

const KEY_FORMAT = /^[\x20-\x7E]{1,255}$/;

/** How long a failed answer waits for its claim's release (ms) before it leaves anyway. */
const RELEASE_WAIT_MS = 250;

/**
 * Whose keys a request's are (`id`: the partner client, or a console's merchant), and the secret its first answers
 * are sealed with besides the key itself (the client's secret key; none for the console, whose keys are the element's
 * own random ones).
 */
export type KeyOwner = (request: FastifyRequest) => { id: string; secret: string };

const partnerOwner: KeyOwner = (request) => ({
  id: request.client.id,
  secret: parseBasic(request.headers.authorization)?.secret ?? '',
});

/**
 * Every POST in the scope this is added to honours an `Idempotency-Key` header, as Stripe does: a retry with
 * the same key and request gets the first answer again (with `idempotent-replayed: true`) and causes nothing
 * twice. Add it after whatever authenticates the caller (`requireClient`), since keys are per owner (`ownerOf`).
 *
 * Exactly once, even across a crash: the first request claims the key under a lease, and the claim rides on the
 * request's unit (request-unit.ts): the handler's first write stores the answer with its change, in the change's one
 * statement or unit. Either both commit or neither does, so a retry finds the answer, or finds a claim whose lease
 * runs out and runs the request itself. An answer no write stored (a refusal, a call that wrote nothing) is recorded
 * as it is sent; answers of 500 or more release the key so a retry runs again. A body refused by validation is not
 * remembered.
 */
export function honourIdempotencyKeys(app: FastifyInstance, clock: Clock, ownerOf: KeyOwner = partnerOwner): void {
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
  const release = (keys: IdempotencyKeyRepository, state: RequestKey, claimedAt: string): Promise<void> =>
    keys.release(state.clientId, state.keyDigest, claimedAt).then(
      () => void (unreleased.get(slot(state)) === claimedAt && unreleased.delete(slot(state))),
      () => forget(state, claimedAt),
    );
  /**
   * Claims held by this process's requests still under way (by key and claim time; a count, since two requests of one
   * key may try the same instant). A claim found unfinished and not among them is not running here: where one process
   * serves the database, it was left by a process that stopped, and the store takes it over at once.
   */
  const running = new Map<string, number>();
  const runningKey = (state: RequestKey, claimedAt: string) => `${slot(state)}@${claimedAt}`;
  const enter = (key: string) => running.set(key, (running.get(key) ?? 0) + 1);
  const leave = (key: string) =>
    running.get(key) === 1 ? running.delete(key) : running.set(key, running.get(key)! - 1);
  const releaseLeftOver = async (keys: IdempotencyKeyRepository, state: RequestKey): Promise<void> => {
    const claimedAt = unreleased.get(slot(state));
    if (claimedAt !== undefined) await keys.release(state.clientId, state.keyDigest, claimedAt);
    unreleased.delete(slot(state));
  };
  // The fingerprint is taken before validation, which may add defaults.
  // Callback hooks: requests without the header pass straight through, without a promise.
  const preValidation: preValidationHookHandler = (request, _reply, done) => {
    const key = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (request.method !== 'POST' || key === undefined) return done();
    if (typeof key !== 'string' || !KEY_FORMAT.test(key)) return done(invalid(INVALID_KEY_MESSAGE));
    const owner = ownerOf(request);
    request.unit.key = {
      clientId: owner.id,
      keyDigest: digest(key),
      sealKey: sealingKey(owner.secret, owner.id, key),
      fingerprint: fingerprint(request),
      settled: false,
    };
    done();
  };

  const preHandler: preHandlerHookHandler = (request, reply, done) => {
    const state = request.unit.key;
    if (!state) return done();
    const now = clock.now();
    const keys = request.unit.keys;
    // Counted as running from before the claim is made, so that a second request never finds it unaccounted for.
    const mine = runningKey(state, isoInstant(now));
    enter(mine);
    const runningHere = (claimedAt: string) => running.has(runningKey(state, claimedAt));
    releaseLeftOver(keys, state)
      .then(() =>
        keys
          .claim(state.clientId, state.keyDigest, state.fingerprint, now, undefined, runningHere)
          .catch((error: unknown) => {
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
          leave(mine);
          const { held } = result;
          if (held.fingerprint !== state.fingerprint)
            return done(new Refusal('idempotency_key_reused', KEY_REUSED_MESSAGE));
          if (held.status_code === null || held.body === null) {
            // Running here: it is about to finish, retry soon. Elsewhere, it may have stopped with its process: the
            // retry runs once its lease is out, so that is when to come back.
            if (runningHere(held.created_at)) return done(conflict(KEY_IN_PROGRESS_MESSAGE, 1));
            const seconds = Math.max(1, Math.ceil((Date.parse(held.locked_until ?? '') - now.getTime()) / 1000) || 1);
            return done(conflict(KEY_HELD_MESSAGE(seconds), seconds));
          }
          const body = unseal(state.sealKey, held.body);
          if (body === undefined) return done(new Refusal('idempotency_key_reused', KEY_UNREADABLE_MESSAGE));
          // Answering from a hook: the reply is sent and `done` is not called.
          replay(reply, held.status_code, body);
        },
        (error: Error) => {
          leave(mine);
          done(error);
        },
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
    const keys = request.unit.keys;
    if (reply.statusCode >= 500 || text === undefined) {
      // Released before the answer leaves, so a retry on any process runs at once; but a database that does not
      // answer holds the answer back only briefly: the release goes on behind it, and until it lands the claim is
      // among the unreleased, which a retry here releases before it claims.
      forget(state, claimedAt);
      let timer: NodeJS.Timeout | undefined;
      void Promise.race([
        release(keys, state, claimedAt),
        new Promise((resolve) => (timer = setTimeout(resolve, RELEASE_WAIT_MS))),
      ]).then(() => {
        clearTimeout(timer);
        done(null, payload);
      });
      return;
    }
    // The answer is recorded before it leaves, so a retry that follows it always finds it.
    keys
      .complete(clientId, keyDigest, claimedAt, reply.statusCode, seal(state.sealKey, text))
      .catch((error: unknown) => {
        request.log.error({ err: error }, 'could not record the answer of an idempotency key');
        forget(state, claimedAt);
        void release(keys, state, claimedAt);
      })
      .then(() => done(null, payload));
  };

  // A claimed request that ended without passing onSend (it should not happen) must not hold its key.
  const onResponse: onResponseHookHandler = (request, _reply, done) => {
    const state = request.unit.key;
    if (state?.claimedAt) leave(runningKey(state, state.claimedAt));
    if (!state?.claimedAt || state.settled) return done();
    state.settled = true;
    void release(request.unit.keys, state, state.claimedAt).then(() => done());
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
