import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { Store } from '../store/store.ts';
import type { Change } from '../store/changes.ts';
import { claimLost, type AnswerSeal, type IdempotencyKeyRepository } from '../store/idempotency-keys.ts';
import { apply, readDecideWrite } from '../services/guarded.ts';
import { seal } from './idempotency-seal.ts';

/** A request's Idempotency-Key (plugins/idempotency.ts): once claimed, the request's first write stores its answer. */
export interface RequestKey {
  clientId: string;
  keyDigest: string;
  sealKey: Buffer;
  fingerprint: string;
  /** Set once this request claimed the key: the claim's `created_at`, and the reply the answer is serialized for. */
  claimedAt?: string;
  reply?: FastifyReply;
  /** The answer was stored (with a write, or as it was sent), or the claim released. */
  settled: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** What the route reads through (`unit.store`) and writes through (`unit.write`, `unit.transaction`). */
    readonly unit: RequestUnit;
  }
}

/**
 * A request's way to the database (docs/architecture.md, "One write path"). Its route reads through `store`, which
 * refuses to write, and writes through `write` (a change a service decided, written as one statement or one unit) or,
 * for what is more than one change, `transaction` (a unit of work). A claimed Idempotency-Key rides on the unit: the
 * request's first write stores the answer with its change, so both commit or neither does.
 */
class RequestUnit {
  /** What the route reads through; in a retry under lock (`readDecideWrite`), the unit of work, whose reads lock. */
  store: Store;
  key: RequestKey | undefined;
  private writer: Store;

  constructor(writer: Store) {
    this.writer = writer;
    this.store = writer.reading();
  }

  /** Writes a change a service decided, and a keyed request's `answer` with it; answers `answer`. */
  async write<A>(change: Change, answer?: A): Promise<A> {
    const sealed = this.sealed(answer);
    await apply(this.writer, change, sealed);
    if (sealed) this.key!.settled = true;
    return answer as A;
  }

  /** Runs `work` as one unit of work; what it returns is the answer, which a keyed request stores in the same unit. */
  async transaction<A>(work: (tx: Store) => Promise<A>): Promise<A> {
    let sealed: AnswerSeal | undefined;
    const answer = await this.writer.transaction(async (tx) => {
      const answer = await work(tx);
      sealed = this.sealed(answer);
      if (
        sealed &&
        !(await tx.idempotencyKeys.complete(
          sealed.clientId,
          sealed.keyDigest,
          sealed.claimedAt,
          sealed.statusCode,
          sealed.body,
        ))
      )
        throw claimLost();
      return answer;
    });
    if (sealed) this.key!.settled = true;
    return answer;
  }

  /** The Idempotency-Key's claim, answer and release (plugins/idempotency.ts), each a write of its own beside the request's. */
  get keys(): IdempotencyKeyRepository {
    return this.writer.idempotencyKeys;
  }

  /** Reads and writes of one attempt go through `store` (plugins: `provideRequestUnits`). */
  attempt(store: Store): void {
    this.writer = store;
    this.store = store.isUnit ? store : store.reading();
  }

  /** The first write of a keyed request carries its answer, sealed as the route's serializer writes it. */
  private sealed(answer: unknown): AnswerSeal | undefined {
    const { clientId, keyDigest, claimedAt, reply, sealKey, settled } = this.key ?? {};
    if (!claimedAt || !reply || settled) return undefined;
    if (answer === undefined)
      throw new Error('the first write of a request with an Idempotency-Key carries its answer');
    return {
      clientId: clientId!,
      keyDigest: keyDigest!,
      claimedAt,
      statusCode: reply.statusCode,
      body: seal(sealKey!, serializedText(reply, answer)),
    };
  }
}

/** The answer's text as the reply's serializer (the route's response schema) writes it. */
function serializedText(reply: FastifyReply, answer: unknown): string {
  const serialized = reply.serialize(answer);
  return typeof serialized === 'string' ? serialized : Buffer.from(serialized as ArrayBuffer).toString('utf8');
}

/**
 * Gives every request of `app` its unit, and runs every route's handler until its write lands (`readDecideWrite`): a
 * handler whose change found its guard no longer holding (`GuardLost`) runs again, reading afresh; after three lost
 * races, once more in a unit of work whose reads hold what they read. A handler reads and decides before its one
 * guarded write, so running it again causes nothing twice.
 */
export function provideRequestUnits(app: FastifyInstance, store: Store): void {
  const units = new WeakMap<FastifyRequest, RequestUnit>();
  app.decorateRequest('unit', {
    getter(this: FastifyRequest) {
      let unit = units.get(this);
      if (!unit) units.set(this, (unit = new RequestUnit(store)));
      return unit;
    },
  });
  app.addHook('onRoute', (route) => {
    const handler = route.handler as RouteHandlerMethod;
    route.handler = async function untilWritten(this: FastifyInstance, request, reply) {
      try {
        return await readDecideWrite(store, async (attempt) => {
          request.unit.attempt(attempt);
          return handler.call(this, request, reply);
        });
      } finally {
        request.unit.attempt(store); // work after the answer (a receipt) writes on its own
      }
    } as RouteHandlerMethod;
  });
}
