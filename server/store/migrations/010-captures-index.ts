import { sql, type Kysely } from 'kysely';

/**
 * `transactions_by_parent` indexed every transaction by its parent, yet one query reads it: the sales that captured
 * holds (`capturesOf`), a merchant's, by the holds' ids. Every refund and every void wrote an entry nobody looks up,
 * and SQLite did not even use it for that query: it preferred `transactions_by_merchant` and read all of the
 * merchant's transactions. This index holds only captures, by merchant and hold, which is the query's whole key
 * (docs/performance.md).
 */
export function capturesIndex() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('transactions_by_parent').execute();
      await sql`CREATE INDEX "transactions_captures" ON "transactions" ("merchant_id", "parent_id") WHERE "kind" = 'sale' AND "parent_id" IS NOT NULL`.execute(
        db,
      );
    },
  };
}
