import { sql, type QueryCreator } from 'kysely';
import type { Database, Executor, IdempotencyKeysTable } from './schema.ts';
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
 * A keyed request's answer, already sealed (plugins/idempotency-seal.ts), for its one write to store in the same
 * statement (PostgreSQL): the write happens only while the request still holds its claim, and the answer is stored
 * only if the write happened.
 */
export interface AnswerSeal {
  clientId: string;
  keyDigest: string;
  claimedAt: string;
  statusCode: number;
  body: string;
  /** Set once the statement carrying it wrote. */
  written?: boolean;
}

/** What a statement of CTEs is built from: the store's executor, or a query creator with CTEs already added. */
type StatementStart = Pick<QueryCreator<Database>, 'with' | 'selectFrom' | 'insertInto' | 'updateTable'>;

const ofClaim = (seal: AnswerSeal) => ({ client_id: seal.clientId, key: seal.keyDigest, created_at: seal.claimedAt });

/**
 * `db` with a sealed write's `claim` CTE in front (or `db` itself without a seal): the request's claim, still
 * unanswered, locked until the statement commits, so that no retry takes it over meanwhile. The write's first
 * sub-statement reads from it (`claimHeld`).
 */
export function withHeldClaim(db: Executor, seal: AnswerSeal | undefined): StatementStart {
  if (!seal) return db;
  const claim = db.with('claim', (q) => q.selectFrom('idempotency_keys').select('key').where((eb) => eb.and(ofClaim(seal))).where('status_code', 'is', null).forUpdate());
  return claim as unknown as StatementStart;
}

/** The condition a sealed write's first sub-statement adds: its request still holds the claim. */
export const claimHeld = sql<boolean>`exists (select 1 from claim)`;

/** `query` with a sealed write's `sealed` CTE added: the answer stored on the claim, if the CTE `after` wrote a row. */
export function withAnswerStored<Q extends StatementStart>(query: Q, seal: AnswerSeal | undefined, after: string): Q {
  if (!seal) return query;
  const sealed = query.with('sealed', (db) =>
    db
      .updateTable('idempotency_keys')
      .set({ status_code: seal.statusCode, body: seal.body, locked_until: null })
      .where((eb) => eb.and(ofClaim(seal)))
      .where(sql<boolean>`exists (select 1 from ${sql.table(after)})`),
  );
  return sealed as unknown as Q;
}

/**
 * What a sealed write that wrote nothing means: a refusal of its own (false) while the claim is still the request's;
 * a conflict when the claim was taken over by a retry after its lease ran out.
 */
export async function unlessClaimLost(db: Executor, seal: AnswerSeal | undefined, written: boolean): Promise<boolean> {
  if (!seal) return written;
  if (written) {
    seal.written = true;
    return true;
  }
  const held = await db.selectFrom('idempotency_keys').select('key').where((eb) => eb.and(ofClaim(seal))).where('status_code', 'is', null).executeTakeFirst();
  if (!held) throw conflict(KEY_SUPERSEDED_MESSAGE);
  return false;
}

/**
 * What `claim` found: either the key is now ours (`claimed`, with the claim's `claimedAt`, which `complete` and
 * `release` match so they only ever touch the claim this request made), or another request holds it (`held`: in
 * progress while `status_code` is null, else finished).
 */
export type ClaimResult = { claimed: true; claimedAt: string } | { claimed: false; held: IdempotencyKey };

/** Idempotency keys of authenticated POSTs, per client, as digests, with the answer the first request got. */
export class IdempotencyKeyRepository {
  private readonly db: Executor;

  constructor(db: Executor) {
    this.db = db;
  }

  /**
   * Inserts the in-progress row for (client, key digest). On a conflict the key is someone's, unless either its row
   * is older than 24 hours (then it is a new key), or it is an unfinished claim of this same request whose lease
   * ran out (its process crashed), or whose claim the caller knows to be `abandoned` (its `created_at`: SQLite, which one
   * process serves, knows every claim still running): then it is taken over. Each replacement is one conditional
   * UPDATE, so of two requests replacing one row only one wins.
   */
  async claim(clientId: string, keyDigest: string, fingerprint: string, now: Date, leaseMs = IDEMPOTENCY_LEASE_MS, abandoned?: string): Promise<ClaimResult> {
    const claimedAt = isoInstant(now);
    const lockedUntil = isoInstant(now, leaseMs);
    const cutoff = isoInstant(now, -IDEMPOTENCY_KEY_TTL_MS);
    const fresh = { fingerprint, status_code: null, body: null, created_at: claimedAt, locked_until: lockedUntil };
    // A row can vanish between the conflict and the read (released after a 5xx): try again then.
    for (let attempt = 0; attempt < 3; attempt++) {
      const inserted = await this.db
        .insertInto('idempotency_keys')
        .values({ client_id: clientId, key: keyDigest, ...fresh })
        .onConflict((oc) => oc.columns(['client_id', 'key']).doNothing())
        .executeTakeFirst();
      if (inserted.numInsertedOrUpdatedRows === 1n) return { claimed: true, claimedAt };
      const replaced = await this.db
        .updateTable('idempotency_keys')
        .set(fresh)
        .where('client_id', '=', clientId)
        .where('key', '=', keyDigest)
        .where((eb) =>
          eb.or([
            eb('created_at', '<=', cutoff),
            eb.and([eb('status_code', 'is', null), eb('fingerprint', '=', fingerprint), eb('locked_until', '<=', claimedAt)]),
            ...(abandoned === undefined ? [] : [eb.and([eb('status_code', 'is', null), eb('fingerprint', '=', fingerprint), eb('created_at', '=', abandoned)])]),
          ]),
        )
        .executeTakeFirst();
      if (replaced.numUpdatedRows === 1n) return { claimed: true, claimedAt };

      const held = await this.find(clientId, keyDigest, now);
      if (held) return { claimed: false, held };
    }
    throw new Error('an idempotency key kept changing hands');
  }

  /** The key's row if it was used in the last 24 hours. */
  async find(clientId: string, keyDigest: string, now: Date): Promise<IdempotencyKey | undefined> {
    const cutoff = isoInstant(now, -IDEMPOTENCY_KEY_TTL_MS);
    return this.db.selectFrom('idempotency_keys').selectAll().where('client_id', '=', clientId).where('key', '=', keyDigest).where('created_at', '>', cutoff).executeTakeFirst();
  }

  /**
   * Stores the answer of the request that claimed the key; false if that claim is gone (a retry took it over).
   * Called inside the request's own transaction, so the answer commits with the change or not at all.
   */
  async complete(clientId: string, keyDigest: string, claimedAt: string, statusCode: number, sealedBody: string): Promise<boolean> {
    const result = await this.db
      .updateTable('idempotency_keys')
      .set({ status_code: statusCode, body: sealedBody, locked_until: null })
      .where('client_id', '=', clientId)
      .where('key', '=', keyDigest)
      .where('created_at', '=', claimedAt)
      .where('status_code', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** Forgets an unfinished claim (the request failed on our side), so a retry runs again. */
  async release(clientId: string, keyDigest: string, claimedAt: string): Promise<void> {
    await this.db
      .deleteFrom('idempotency_keys')
      .where('client_id', '=', clientId)
      .where('key', '=', keyDigest)
      .where('created_at', '=', claimedAt)
      .where('status_code', 'is', null)
      .execute();
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
        .where((eb) => eb(eb.refTuple('client_id', 'key'), 'in', eb.selectFrom('idempotency_keys').select(['client_id', 'key']).where('created_at', '<=', cutoff).limit(batch).$asTuple('client_id', 'key')))
        .executeTakeFirst();
      purged += Number(result.numDeletedRows);
      if (Number(result.numDeletedRows) < batch) return purged;
    }
  }

}
