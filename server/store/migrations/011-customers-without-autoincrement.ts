import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../schema.ts';

/**
 * Customers without AUTOINCREMENT on SQLite: AUTOINCREMENT reads and rewrites the table's row in `sqlite_sequence`
 * on every insert, one more B-tree for POST /customers/add to write, and measured at 6% of that call's CPU
 * (docs/performance.md). Customers are never deleted, so `seq` counts on by one without it, as
 * `messages`' does since 009. SQLite cannot drop AUTOINCREMENT in place: the table is copied once, in one
 * transaction. PostgreSQL's sequence has no such cost.
 */
export function customersWithoutAutoincrement(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (dialect === 'postgres') return;
      await db.transaction().execute(async (trx) => {
        for (const statement of SQLITE) await sql.raw(statement).execute(trx);
      });
    },
  };
}

const SQLITE = [
  `CREATE TABLE "customers_new" ("seq" integer primary key, "id" text not null unique,
    "merchant_id" text not null references "merchants" ("id"), "first_name" text not null, "last_name" text not null,
    "email" text not null, "phone" text not null, "created_at" text not null)`,
  'INSERT INTO "customers_new" SELECT * FROM "customers"',
  'DROP TABLE "customers"',
  'ALTER TABLE "customers_new" RENAME TO "customers"',
  'CREATE INDEX "customers_by_merchant" ON "customers" ("merchant_id", "seq")',
];
