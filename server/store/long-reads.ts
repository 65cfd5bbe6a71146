import { sql, type Kysely } from 'kysely';
import type { Database, Executor } from './schema.ts';

/**
 * Reads that could run long: the console's listings and searches, and each page of an export (issue 43). However
 * much a merchant has, none may hold the service: on SQLite they run on the reader thread (sqlite/open-sqlite.ts),
 * so the event loop never waits for one; on PostgreSQL each runs in a read-only transaction whose statements are
 * stopped at their kind's time limit (SQLSTATE 57014, answered 503 with Retry-After), whatever the pool's own.
 */
export type LongRead = 'listing' | 'export';
export type LongReads = <T>(kind: LongRead, work: (db: Executor) => Promise<T>) => Promise<T>;

/**
 * A listing is a few index ranges (milliseconds at a million rows); an export's page reads five hundred rows. Set in
 * the read's transaction over the pool's 2.5 s, and under the 5 s the service waits for an answer (postgres-pool.ts),
 * so PostgreSQL's cancel comes first and the connection stays in the pool.
 */
const STATEMENT_TIMEOUT_MS: Record<LongRead, number> = { listing: 2_000, export: 4_000 };

export const postgresLongReads =
  (db: Kysely<Database>): LongReads =>
  (kind, work) =>
    db
      .transaction()
      .setAccessMode('read only')
      .execute(async (trx) => {
        await sql`select set_config('statement_timeout', ${String(STATEMENT_TIMEOUT_MS[kind])}, true)`.execute(trx);
        return work(trx);
      });

export const sqliteLongReads =
  (readerThread: Kysely<Database>): LongReads =>
  (_kind, work) =>
    work(readerThread);
