import { sql, type Kysely } from 'kysely';

/**
 * The console's "disputed" filter (issue 46): a merchant's disputed sales by date, from an index of them alone, so the
 * filter reads about a page however long the history. Its condition is the listing's (console-listing.ts, `DISPUTED`).
 */
export function disputedSales() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await sql
        .raw(
          'CREATE INDEX "transactions_disputed" ON "transactions" ("merchant_id", "created_at", "seq") WHERE "dispute_id" IS NOT NULL',
        )
        .execute(db);
    },
  };
}
