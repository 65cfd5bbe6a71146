import type {
  FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod,
  onResponseHookHandler, onSendHookHandler, preHandlerHookHandler, preValidationHookHandler,
} from 'fastify';
import type { Clock } from '../platform/clock.ts';
import { Refusal, conflict, invalid } from '../domain/refusals.ts';
import { digest } from '../platform/secrets.ts';
import { seal, sealingKey, unseal } from './idempotency-seal.ts';
import type { Store } from '../store/store.ts';
import { KEY_SUPERSEDED_MESSAGE, type AnswerSeal } from '../store/idempotency-keys.ts';
import { parseBasic } from './basic-auth.ts';
import { isoInstant } from '../domain/instants.ts';

const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
const REPLAYED_HEADER = 'idempotent-replayed';

const INVALID_KEY_MESSAGE = 'Idempotency-Key must be 1 to 255 printable characters.';
const KEY_REUSED_MESSAGE = 'This Idempotency-Key was already used with a different request: use a new key for a new request.';
const KEY_IN_PROGRESS_MESSAGE = 'A request with this Idempotency-Key is still being processed: retry in a moment.';
const KEY_HELD_MESSAGE = (seconds: number) =>
  `A request with this Idempotency-Key has not finished: it may still run on another process, or its process stopped. Retry in ${seconds} seconds, when its hold runs out.`;
export const KEY_UNREADABLE_MESSAGE =
  'The first answer to this Idempotency-Key was sealed with a secret key that has been replaced since: use a new key for a new request.';

const KEY_FORMAT = /^[\x20-\x7E]{1,255}$/;

/** How long a failed answer waits for its claim's release (ms) before it leaves anyway. */
const RELEASE_WAIT_MS = 250;

/**
 * Route config: `after-answer` records the answer once sent, for calls that are idempotent by nature and must not
 * hold a transaction (they look up DNS). `with-write`, on PostgreSQL: the handler's one write stores the answer in
 * its own statement (`request.sealAnswer`), without a unit of work around the handler (BEGIN, COMMIT and the answer's
 * UPDATE are three round trips). The default, and `with-write` on SQLite: the handler runs in a unit of work that
 * also stores its answer.
 */
interface IdempotencyConfig {
  idempotency?: 'with-change' | 'after-answer' | 'with-write';
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The store a route's work goes through: the unit of work of a request with an Idempotency-Key while its handler
     * runs (its change and its recorded answer commit together), the service's store otherwise. Routes in the scope
     * of `honourIdempotencyKeys` use this, never the store they were registered with.
     */
    readonly store: Store;
    /**
     * In a `with-write` route, the seal of `answer` for the handler's write to store, when the request claimed an
     * Idempotency-Key on PostgreSQL; undefined otherwise. The handler then answers with that same `answer`.
     */
    sealAnswer(answer: unknown): AnswerSeal | undefined;
  }
}

interface KeyedRequest {
  /** While the handler runs: the unit of work holding its change and its answer. */
  unit?: Store | undefined;
  clientId: string;
  keyDigest: string;
  sealKey: Buffer;
  fingerprint: string;
  /** Set once this request claimed the key: the claim's `created_at`. */
  claimedAt?: string;
  /** The reply, for serializing an answer before the handler returns it (`sealAnswer`). */
  reply?: FastifyReply;
  /** The last answer a `with-write` handler had sealed for its write. */
  seal?: AnswerSeal;
  /** The claim was completed or released. */
  settled: boolean;
}

/**
 * Whose keys a request's are (`id`: the partner client, or a console's merchant), and the secret its first answers
 * are sealed with besides the key itself (the client's secret key; none for the console, whose keys are the element's
 * own random ones).
 */
export type KeyOwner = (request: FastifyRequest) => { id: string; secret: string };

const partnerOwner: KeyOwner = (request) => ({ id: request.client.id, secret: parseBasic(request.headers.authorization)?.secret ?? '' });

/**
 * Every POST in the scope this is added to honours an `Idempotency-Key` header, as Stripe does: a retry with
 * the same key and request gets the first answer again (with `idempotent-replayed: true`) and causes nothing
 * twice. Add it after whatever authenticates the caller (`requireClient`), since keys are per owner (`ownerOf`).
 *
 * Exactly once, even across a crash: the first request claims the key under a lease, and its handler runs as one
 * unit of work whose transaction also stores the answer (or, in a `with-write` route on PostgreSQL, its one write's
 * statement stores it). Either both commit or neither does, so a retry finds the answer, or finds a claim whose
 * lease runs out and runs the request itself. Answers of 4xx the handler gave are
 * kept too; answers of 500 or more release the key so a retry runs again. A body refused by validation is not
 * remembered.
 */
export function honourIdempotencyKeys(app: FastifyInstance, store: Store, clock: Clock, ownerOf: KeyOwner = partnerOwner): void {
  const keyed = new WeakMap<FastifyRequest, KeyedRequest>();
  /**
   * Claims of answered failures that could not be released (the database was away or full): released when the key
   * comes back, before it is claimed again, so a retry after the database recovers runs at once instead of waiting
   * out the lease, which is for crashes only.
   */
  const unreleased = new Map<string, string>();
  const slot = (state: KeyedRequest) => `${state.clientId}:${state.keyDigest}`;
  const forget = (state: KeyedRequest, claimedAt: string) => {
    // Bounded: past this, the oldest wait out their lease as a crashed request's claim does.
    if (unreleased.size >= 10_000) unreleased.delete(unreleased.keys().next().value!);
    unreleased.set(slot(state), claimedAt);
  };
  const release = (state: KeyedRequest, claimedAt: string): Promise<void> =>
    store.idempotencyKeys.release(state.clientId, state.keyDigest, claimedAt).then(
      () => void (unreleased.get(slot(state)) === claimedAt && unreleased.delete(slot(state))),
      () => forget(state, claimedAt),
    );
  /**
   * Claims held by this process's requests still under way (by key and claim time; a count, since two requests of one
   * key may try the same instant). A claim found unfinished and not among them is not running here: on SQLite, which
   * one process serves, it was left by a process that stopped, and is taken over at once.
   */
  const running = new Map<string, number>();
  const runningKey = (state: KeyedRequest, claimedAt: string) => `${slot(state)}@${claimedAt}`;
  const enter = (key: string) => running.set(key, (running.get(key) ?? 0) + 1);
  const leave = (key: string) => (running.get(key) === 1 ? running.delete(key) : running.set(key, running.get(key)! - 1));
  const releaseLeftOver = async (state: KeyedRequest): Promise<void> => {
    const claimedAt = unreleased.get(slot(state));
    if (claimedAt !== undefined) await store.idempotencyKeys.release(state.clientId, state.keyDigest, claimedAt);
    unreleased.delete(slot(state));
  };
  // Passed along explicitly: an AsyncLocalStorage would turn on Node's promise hooks for the whole process once used,
  // which cost every request of every kind ~15% more CPU (docs/performance.md).
  app.decorateRequest('store', {
    getter(this: FastifyRequest) {
      return keyed.get(this)?.unit ?? store;
    },
  });
  app.decorateRequest('sealAnswer', function (this: FastifyRequest, answer: unknown): AnswerSeal | undefined {
    const state = keyed.get(this);
    if (!state?.claimedAt || !state.reply || state.unit) return undefined;
    const text = serializedText(state.reply, answer);
    const { clientId, keyDigest, claimedAt } = state;
    return (state.seal = { clientId, keyDigest, claimedAt, statusCode: state.reply.statusCode, body: seal(state.sealKey, text) });
  });

  // The fingerprint is taken before validation, which may add defaults.
  // Callback hooks: requests without the header pass straight through, without a promise.
  const preValidation: preValidationHookHandler = (request, _reply, done) => {
    const key = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (request.method !== 'POST' || key === undefined) return done();
    if (typeof key !== 'string' || !KEY_FORMAT.test(key)) return done(invalid(INVALID_KEY_MESSAGE));
    const owner = ownerOf(request);
    keyed.set(request, {
      clientId: owner.id,
      keyDigest: digest(key),
      sealKey: sealingKey(owner.secret, owner.id, key),
      fingerprint: fingerprint(request),
      settled: false,
    });
    done();
  };

  const preHandler: preHandlerHookHandler = (request, reply, done) => {
    const state = keyed.get(request);
    if (!state) return done();
    const now = clock.now();
    // Counted as running from before the claim is made, so that a second request never finds it unaccounted for.
    const mine = runningKey(state, isoInstant(now));
    enter(mine);
    const claim = (abandoned?: string) =>
      store.idempotencyKeys.claim(state.clientId, state.keyDigest, state.fingerprint, now, undefined, abandoned).catch((error: unknown) => {
        // A claim that failed may still have reached the database (its commit did, its answer did not).
        forget(state, isoInstant(now));
        throw error;
      });
    releaseLeftOver(state)
      .then(() => claim())
      .then((result) => {
        const held = result.claimed ? undefined : result.held;
        const abandoned = held && held.status_code === null && store.dialect === 'sqlite' && held.fingerprint === state.fingerprint && !running.has(runningKey(state, held.created_at));
        return abandoned ? claim(held.created_at) : result;
      })
      .then(
      (result) => {
        if (result.claimed) {
          state.claimedAt = result.claimedAt;
          state.reply = reply;
          return done();
        }
        leave(mine);
        const { held } = result;
        if (held.fingerprint !== state.fingerprint) return done(new Refusal('idempotency_key_reused', KEY_REUSED_MESSAGE));
        if (held.status_code === null || held.body === null) {
          // Running here: it is about to finish, retry soon. Elsewhere, it may have stopped with its process: the
          // retry runs once its lease is out, so that is when to come back.
          if (running.has(runningKey(state, held.created_at))) return done(conflict(KEY_IN_PROGRESS_MESSAGE, 1));
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


  // Answers the handler did not commit itself: a 4xx it threw (its transaction rolled back), a 5xx, or a call
  // marked `after-answer`.
  const onSend: onSendHookHandler = (request, reply, payload, done) => {
    const state = keyed.get(request);
    if (!state?.claimedAt || state.settled) return done(null, payload);
    state.settled = true;
    // Stored by the handler's write, with the change.
    if (state.seal?.written) return done(null, payload);
    const text = payloadText(payload);
    const { clientId, keyDigest, claimedAt } = state;
    if (reply.statusCode >= 500 || text === undefined) {
      // Released before the answer leaves, so a retry on any process runs at once; but a database that does not
      // answer holds the answer back only briefly: the release goes on behind it, and until it lands the claim is
      // among the unreleased, which a retry here releases before it claims.
      forget(state, claimedAt);
      let timer: NodeJS.Timeout | undefined;
      void Promise.race([release(state, claimedAt), new Promise((resolve) => (timer = setTimeout(resolve, RELEASE_WAIT_MS)))]).then(() => {
        clearTimeout(timer);
        done(null, payload);
      });
      return;
    }
    // The answer is recorded before it leaves, so a retry that follows it always finds it.
    store.idempotencyKeys.complete(clientId, keyDigest, claimedAt, reply.statusCode, seal(state.sealKey, text))
      .catch((error: unknown) => {
        request.log.error({ err: error }, 'could not record the answer of an idempotency key');
        forget(state, claimedAt);
        void release(state, claimedAt);
      })
      .then(() => done(null, payload));
  };

  // A claimed request that ended without passing onSend (it should not happen) must not hold its key.
  const onResponse: onResponseHookHandler = (request, _reply, done) => {
    const state = keyed.get(request);
    if (state?.claimedAt) leave(runningKey(state, state.claimedAt));
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
    // The handler and the recording of its answer commit together.
    const kind = (route.config as IdempotencyConfig | undefined)?.idempotency;
    if (kind === 'after-answer' || (kind === 'with-write' && store.dialect === 'postgres')) return;
    const handler = route.handler as RouteHandlerMethod;
    route.handler = async function withAnswerInTransaction(this: FastifyInstance, request, reply) {
      const state = keyed.get(request);
      if (!state?.claimedAt) return handler.call(this, request, reply);
      const claimedAt = state.claimedAt;
      let recorded = false;
      const answer = await store.transaction(async (unit) => {
        state.unit = unit;
        try {
          const payload = await handler.call(this, request, reply);
          // A handler that answered by hand is recorded by onSend, after the fact.
          if (reply.sent || payload === reply) return payload;
          const text = serializedText(reply, payload);
          if (!(await unit.idempotencyKeys.complete(state.clientId, state.keyDigest, claimedAt, reply.statusCode, seal(state.sealKey, text)))) {
            throw conflict(KEY_SUPERSEDED_MESSAGE);
          }
          recorded = true;
          reply.header('content-type', 'application/json; charset=utf-8');
          return text;
        } finally {
          state.unit = undefined;
        }
      });
      // Only once it committed: a commit that failed (a full disk) leaves the claim for onSend to release.
      state.settled = recorded;
      return answer;
    } as RouteHandlerMethod;
  });
}

/** The answer's text as the reply's serializer (the route's response schema) writes it. */
function serializedText(reply: FastifyReply, answer: unknown): string {
  const serialized = reply.serialize(answer);
  return typeof serialized === 'string' ? serialized : Buffer.from(serialized as ArrayBuffer).toString('utf8');
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
