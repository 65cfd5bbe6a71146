import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../schema.ts';

/**
 * `paykit listen` reads a client's events in the order they committed, from a cursor, so that none is missed between
 * two reads (issue 48). On SQLite, whose one writer commits in `seq` order, `seq` is that order: nothing to add. On
 * PostgreSQL a transaction may commit after a later `seq` was read, so each event keeps the id of the transaction that
 * wrote it (`txid`, a default: no write path changes), and a reader lists only the events of transactions older than
 * every one still running (docs/webhooks.md, "Listening"). Events written before this migration have none and are
 * never listed: a listener starts from its present. The index serves that read; it is an entry more for each event.
 */
export function eventsInCommitOrder(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (dialect !== 'postgres') return;
      // Added without a default, then given one: old rows are not rewritten, new ones get their transaction's id.
      await sql`ALTER TABLE "events" ADD COLUMN "txid" bigint`.execute(db);
      await sql`ALTER TABLE "events" ALTER COLUMN "txid" SET DEFAULT (pg_current_xact_id()::text::bigint)`.execute(db);
      await sql`CREATE INDEX "events_in_commit_order" ON "events" ("client_id", "txid", "seq")`.execute(db);
    },
  };
}
