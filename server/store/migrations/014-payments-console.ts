import { sql, type Kysely } from 'kysely';

/**
 * The payments console (issue 32).
 *
 * - A widget session has an id (`wss_…`, named in the events of the actions made through it) and the features its
 *   merchant's server granted, as JSON. Sessions made before have neither: they stay read-only.
 * - `receipts_enabled` per merchant, on by default.
 * - `receipts`: the hosted receipt page's token (as a digest) for a payment, refund or void, and the shopper's language.
 * - Two partial indexes on transactions, each for a query the console sends: the listing sorted by amount, and a
 *   sale's refunds, voids and returns for its details. Every listed transaction's write adds one entry to the first,
 *   every reversal's one to the second; search terms get none (docs/decisions.md, "Payments console").
 */
export function paymentsConsole() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('widget_sessions').addColumn('id', 'text').execute();
      await db.schema
        .alterTable('widget_sessions')
        .addColumn('features', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
      await db.schema
        .alterTable('widget_settings')
        .addColumn('receipts_enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema
        .createTable('receipts')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('merchant_id', 'text', (c) => c.notNull())
        .addColumn('transaction_id', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('receipts_by_transaction')
        .on('receipts')
        .columns(['merchant_id', 'transaction_id'])
        .execute();
      const listed = sql.raw(`"kind" IN ('sale', 'refund', 'void', 'ach_return')`);
      await sql`CREATE INDEX "transactions_listed_by_amount" ON "transactions" ("merchant_id", "amount", "seq", "kind") WHERE ${listed}`.execute(
        db,
      );
      await sql`CREATE INDEX "transactions_reversals" ON "transactions" ("merchant_id", "parent_id", "created_at") WHERE "kind" IN ('refund', 'void', 'ach_return')`.execute(
        db,
      );
    },
  };
}
