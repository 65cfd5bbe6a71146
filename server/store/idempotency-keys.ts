import type { Executor, IdempotencyKeysTable } from './schema.ts';

export type IdempotencyKey = IdempotencyKeysTable;

/** How long a key is remembered; an older key counts as new. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * What `claim` found: either the key is now ours (`claimed`, with the row's `created_at`, which
 * `complete` and `release` match so they only ever touch the row this claim made), or another
 * request holds it (`held`: in progress while `status_code` is null, else finished).
 */
export type ClaimResult = { claimed: true; createdAt: string } | { claimed: false; held: IdempotencyKey };

/** Idempotency keys of authenticated POSTs, per client, with the answer the first request got. */
export class IdempotencyKeyRepository {
  constructor(private readonly db: Executor) {}

  /**
   * Inserts the in-progress row for (client, key). A primary-key conflict means someone holds the key,
   * unless its row is older than 24 hours: then it is replaced (atomically, so of two requests replacing
   * the same stale row only one wins).
   */
  async claim(clientId: string, key: string, fingerprint: string, now: Date): Promise<ClaimResult> {
    const createdAt = now.toISOString();
    const cutoff = new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS).toISOString();
    // A row can vanish between the conflict and the read (released after a 5xx): try again then.
    for (let attempt = 0; attempt < 3; attempt++) {
      const inserted = await this.db
        .insertInto('idempotency_keys')
        .values({ client_id: clientId, key, fingerprint, status_code: null, body: null, created_at: createdAt })
        .onConflict((oc) => oc.columns(['client_id', 'key']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return { claimed: true, createdAt };

      const replaced = await this.db
        .updateTable('idempotency_keys')
        .set({ fingerprint, status_code: null, body: null, created_at: createdAt })
        .where('client_id', '=', clientId)
        .where('key', '=', key)
        .where('created_at', '<=', cutoff)
        .executeTakeFirst();
      if (Number(replaced.numUpdatedRows) === 1) return { claimed: true, createdAt };

      const held = await this.find(clientId, key, now);
      if (held) return { claimed: false, held };
    }
    throw new Error(`idempotency key ${key} kept changing hands`);
  }

  /** The key's row if it was used in the last 24 hours. */
  async find(clientId: string, key: string, now: Date): Promise<IdempotencyKey | undefined> {
    const cutoff = new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS).toISOString();
    return this.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('client_id', '=', clientId)
      .where('key', '=', key)
      .where('created_at', '>', cutoff)
      .executeTakeFirst();
  }

  /** Stores the answer of the request that claimed the key; false if that claim is gone. */
  async complete(clientId: string, key: string, createdAt: string, statusCode: number, body: string): Promise<boolean> {
    const result = await this.db
      .updateTable('idempotency_keys')
      .set({ status_code: statusCode, body })
      .where('client_id', '=', clientId)
      .where('key', '=', key)
      .where('created_at', '=', createdAt)
      .where('status_code', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Forgets an unfinished claim (the request failed on our side), so a retry runs again. */
  async release(clientId: string, key: string, createdAt: string): Promise<void> {
    await this.db
      .deleteFrom('idempotency_keys')
      .where('client_id', '=', clientId)
      .where('key', '=', key)
      .where('created_at', '=', createdAt)
      .where('status_code', 'is', null)
      .execute();
  }
}
