import type { ExpressionBuilder } from 'kysely';
import type { Database, Executor, IdempotencyKeysTable } from './schema.ts';
import type { RunSteps } from './sqlite/writer-thread.ts';
import { isoInstant } from '../domain/instants.ts';
import { conflict } from '../domain/refusals.ts';

export type IdempotencyKey = IdempotencyKeysTable;

/** How long a key is remembered; an older key counts as new, and its row is purged. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * How long a first request holds its key while it runs. A request that crashed with its process never finishes:
 * once its lease has run out, a retry takes the key over and runs. Longer than any request takes (the service
 * gives up on a request after 30 seconds).
 */
export const IDEMPOTENCY_LEASE_MS = 60 * 1000;

export const KEY_SUPERSEDED_MESSAGE =
  'This request ran past its Idempotency-Key lease and a retry took its place; nothing it did was kept. The retry has the answer.';

/**
 * A keyed request's answer, already sealed (plugins/idempotency-seal.ts), for the write that makes its change to store
 * with it (changes.ts): the write happens only while the request still holds its claim.
 */
export interface AnswerSeal {
  clientId: string;
  keyDigest: string;
  claimedAt: string;
  statusCode: number;
  body: string;
}

/** The request's own claim, still unanswered. */
export const unanswered =
  (seal: Pick<AnswerSeal, 'clientId' | 'keyDigest' | 'claimedAt'>) =>
  (eb: ExpressionBuilder<Database, 'idempotency_keys'>) =>
    eb.and([
      eb('client_id', '=', seal.clientId),
      eb('key', '=', seal.keyDigest),
      eb('created_at', '=', seal.claimedAt),
      eb('status_code', 'is', null),
    ]);

/** A keyed write that found its claim taken over by a retry (its lease ran out): nothing it did is kept. */
export const claimLost = () => conflict(KEY_SUPERSEDED_MESSAGE);

/**
 * What `claim` found: either the key is now ours (`claimed`, with the claim's `claimedAt`, which `complete` and
 * `release` match so they only ever touch the claim this request made), or another request holds it (`held`: in
 * progress while `status_code` is null, else finished).
 */
export type ClaimResult = { claimed: true; claimedAt: string } | { claimed: false; held: IdempotencyKey };

/** Idempotency keys of authenticated POSTs, per client, as digests, with the answer the first request got. */
export class IdempotencyKeyRepository {
  private readonly db: Executor;
  private readonly runSteps: RunSteps | undefined;

  constructor(db: Executor, runSteps: RunSteps | undefined) {
    this.db = db;
    this.runSteps = runSteps;
  }

  /**
   * Inserts the in-progress row for (client, key digest). On a conflict the key is someone's, unless either its row
   * is older than 24 hours (then it is a new key), or it is an unfinished claim of this same request whose lease
   * ran out (its process crashed), or, where one process serves the database (SQLite), whose claim is not among those
   * `runningHere` (its process stopped): then it is taken over. The insert and the replacements are one upsert, so of
   * two requests replacing one row only one wins; then, if it did not claim, the key's row is read. On SQLite both
   * statements are one unit of the group commit.
   */
  async claim(
    clientId: string,
    keyDigest: string,
    fingerprint: string,
    now: Date,
    leaseMs = IDEMPOTENCY_LEASE_MS,
    runningHere?: (claimedAt: string) => boolean,
  ): Promise<ClaimResult> {
    const claimedAt = isoInstant(now);
    const cutoff = isoInstant(now, -IDEMPOTENCY_KEY_TTL_MS);
    const fresh = {
      fingerprint,
      status_code: null,
      body: null,
      created_at: claimedAt,
      locked_until: isoInstant(now, leaseMs),
    };
    const unfinishedOfThisRequest = (eb: ExpressionBuilder<Database, 'idempotency_keys'>) => [
      eb('idempotency_keys.status_code', 'is', null),
      eb('idempotency_keys.fingerprint', '=', fingerprint),
    ];
    const upsert = (abandoned?: string) =>
      this.db
        .insertInto('idempotency_keys')
        .values({ client_id: clientId, key: keyDigest, ...fresh })
        .onConflict((oc) =>
          oc
            .columns(['client_id', 'key'])
            .doUpdateSet(fresh)
            .where((eb) =>
              eb.or([
                eb('idempotency_keys.created_at', '<=', cutoff),
                eb.and([...unfinishedOfThisRequest(eb), eb('idempotency_keys.locked_until', '<=', claimedAt)]),
                ...(abandoned === undefined
                  ? []
                  : [eb.and([...unfinishedOfThisRequest(eb), eb('idempotency_keys.created_at', '=', abandoned)])]),
              ]),
            ),
        )
        .returning('created_at');
    const find = this.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('client_id', '=', clientId)
      .where('key', '=', keyDigest)
      .where('created_at', '>', cutoff);
    if (this.runSteps) {
      const runSteps = this.runSteps;
      const steps = async (abandoned?: string): Promise<ClaimResult> => {
        const [claimed, found] = (await runSteps([upsert(abandoned).compile(), find.compile()])) as {
          rows: IdempotencyKey[];
        }[];
        return claimed!.rows.length === 1 ? { claimed: true, claimedAt } : { claimed: false, held: found!.rows[0]! };
      };
      const result = await steps();
      const held = result.claimed ? undefined : result.held;
      // One process serves the file: an unfinished claim of this same request not running here was left by one that stopped.
      const abandoned =
        held &&
        held.status_code === null &&
        held.fingerprint === fingerprint &&
        runningHere &&
        !runningHere(held.created_at);
      return abandoned ? steps(held.created_at) : result;
    }
    // A row can vanish between the conflict and the read (released after a 5xx): try again then.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await upsert().executeTakeFirst()) return { claimed: true, claimedAt };
      const held = await find.executeTakeFirst();
      if (held) return { claimed: false, held };
    }
    throw new Error('an idempotency key kept changing hands');
  }

  /** The key's row if it was used in the last 24 hours. */
  async find(clientId: string, keyDigest: string, now: Date): Promise<IdempotencyKey | undefined> {
    const cutoff = isoInstant(now, -IDEMPOTENCY_KEY_TTL_MS);
    return this.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('client_id', '=', clientId)
      .where('key', '=', keyDigest)
      .where('created_at', '>', cutoff)
      .executeTakeFirst();
  }

  /**
   * Stores the answer of the request that claimed the key; false if that claim is gone (a retry took it over).
   * Called inside the request's own transaction, so the answer commits with the change or not at all.
   */
  async complete(
    clientId: string,
    keyDigest: string,
    claimedAt: string,
    statusCode: number,
    sealedBody: string,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('idempotency_keys')
      .set({ status_code: statusCode, body: sealedBody, locked_until: null })
      .where(unanswered({ clientId, keyDigest, claimedAt }))
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** Forgets an unfinished claim (the request failed on our side), so a retry runs again. */
  async release(clientId: string, keyDigest: string, claimedAt: string): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where(unanswered({ clientId, keyDigest, claimedAt })).execute();
  }

  /**
   * Deletes the keys older than 24 hours, answers and all; returns how many. In batches, so that a backlog (a service
   * that was down for days) never makes one statement longer than PostgreSQL's statement timeout (postgres-pool.ts).
   */
  async purgeExpired(now: Date, batch = 5000): Promise<number> {
    const cutoff = isoInstant(now, -IDEMPOTENCY_KEY_TTL_MS);
    let purged = 0;
    for (;;) {
      const result = await this.db
        .deleteFrom('idempotency_keys')
        .where((eb) =>
          eb(
            eb.refTuple('client_id', 'key'),
            'in',
            eb
              .selectFrom('idempotency_keys')
              .select(['client_id', 'key'])
              .where('created_at', '<=', cutoff)
              .limit(batch)
              .$asTuple('client_id', 'key'),
          ),
        )
        .executeTakeFirst();
      purged += Number(result.numDeletedRows);
      if (Number(result.numDeletedRows) < batch) return purged;
    }
  }
}
