import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../schema.ts';

/**
 * Every question the payments console asks is an index range (issue 43, docs/decisions.md "Payments console").
 *
 * - A transaction's console state, one word for what its kind, status and refunded amount say together (CONSOLE_STATE):
 *   a sale `completed` (nothing refunded), `refunded` (in part or whole), `voided`, `pending` or `declined`; a
 *   `refund`, `void` or `ach_return`; a hold `hold_authorized`, `hold_captured` or `hold_voided`. Indexed as an
 *   expression, so every write keeps it (a refund's new refunded amount moves its sale to `refunded`) and building the
 *   index fills it for the rows already there. Each filter of kind, status and card brand is a set of these states
 *   (domain/console.ts), each state one range of `transactions_by_state` or, with a brand, `transactions_by_brand`, in
 *   date order; the `_amount` twins hold the same ranges in amount order.
 * - Search: an order id by its ASCII-lowercased key (ORDER_KEY: exactly, and by prefix), a last four, an amount, and the
 *   e-mail a pay link was sent to (EMAIL_KEY on payment_requests), each by an index whose next columns are the listing's
 *   order. Amount order breaks ties by date, so the amount index serves an amount search in date order too.
 *
 * Every write of a transaction adds an entry to six more B-trees (docs/performance.md, "Growth"). One transaction on
 * PostgreSQL, as every migration there: writes to the two tables wait while the indexes are built.
 */
export function consoleSearch(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const state = sql.raw(CONSOLE_STATE);
      const orderKey = sql.raw(ORDER_KEY[dialect]);
      const emailKey = sql.raw(EMAIL_KEY[dialect]);
      await sql`DROP INDEX "transactions_listed_by_amount"`.execute(db);
      await sql`CREATE INDEX "transactions_by_amount" ON "transactions" ("merchant_id", "amount", "created_at", "seq") WHERE ${sql.raw(LISTED)}`.execute(
        db,
      );
      await sql`CREATE INDEX "transactions_by_state" ON "transactions" ("merchant_id", (${state}), "created_at", "seq")`.execute(
        db,
      );
      await sql`CREATE INDEX "transactions_by_state_amount" ON "transactions" ("merchant_id", (${state}), "amount", "created_at", "seq")`.execute(
        db,
      );
      await sql`CREATE INDEX "transactions_by_brand" ON "transactions" ("merchant_id", "card_brand", (${state}), "created_at", "seq")`.execute(
        db,
      );
      await sql`CREATE INDEX "transactions_by_brand_amount" ON "transactions" ("merchant_id", "card_brand", (${state}), "amount", "created_at", "seq")`.execute(
        db,
      );
      await sql`CREATE INDEX "transactions_by_order_key" ON "transactions" ("merchant_id", (${orderKey}), "created_at", "seq")`.execute(
        db,
      );
      await sql`CREATE INDEX "transactions_by_last_four" ON "transactions" ("merchant_id", "last_four", "created_at", "seq")`.execute(
        db,
      );
      await sql`CREATE INDEX "payment_requests_by_email" ON "payment_requests" ("merchant_id", (${emailKey}), "created_at") WHERE "email" <> ''`.execute(
        db,
      );
    },
  };
}

const LISTED = `"kind" IN ('sale', 'refund', 'void', 'ach_return')`;

/** The console state of a transaction row; a query names it word for word, as the indexes were built on it. */
export const CONSOLE_STATE =
  `CASE WHEN "kind" = 'sale' AND "refunded_amount" > 0 THEN 'refunded' WHEN "kind" = 'sale' THEN "status" ` +
  `WHEN "kind" = 'preauth' THEN 'hold_' || "status" ELSE "kind" END`;

/**
 * Text in any case, as the search compares it: ASCII letters lowercased, every other character as it is, on both
 * databases (SQLite's lower() folds ASCII alone; PostgreSQL's does so under the C collation, which also orders the
 * index by code point, so that a prefix is one range).
 */
const folded = (column: string): Record<Dialect, string> => ({
  sqlite: `lower("${column}")`,
  postgres: `lower("${column}" COLLATE "C")`,
});
export const ORDER_KEY = folded('order_id');
export const EMAIL_KEY = folded('email');
