import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../schema.ts';

/**
 * A pay link wrote twelve B-trees and a refund eleven, several of which no query reads. Every B-tree a write touches
 * costs its page in the group's savepoint journal, in its WAL frames and in the next checkpoint
 * (docs/performance.md). This keeps the indexes that queries use and drops the rest:
 *
 * - `payment_requests.sales_id` and `messages.id` lose their unique indexes: both are UUIDv7 ids made by the service,
 *   nothing looks a row up by them, and the transaction a paid link becomes has a unique id of its own.
 * - `messages` and its texts-per-recipient index: only texts are counted per recipient, so only texts are indexed.
 * - `messages` without AUTOINCREMENT (SQLite): rows are never deleted, so `seq` grows by one either way, without the
 *   `sqlite_sequence` row that AUTOINCREMENT updates on every insert.
 * - `merchant_orders` WITHOUT ROWID (SQLite): its key is its primary key, one B-tree instead of a table and an index.
 * - `events_holding_secrets` holds only the events that hold a secret, the only ones housekeeping looks for.
 *
 * SQLite cannot drop a column's UNIQUE or AUTOINCREMENT in place, so those tables are rebuilt (copied once, in one
 * transaction: a large database takes a while at its first start on this version). `payment_attempts` is rebuilt with
 * `payment_requests`, whose id it references: dropping the old parent while a child still pointed at it would break
 * the foreign key.
 */
export function fewerIndexWrites(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (dialect === 'postgres') {
        for (const statement of POSTGRES) await sql.raw(statement).execute(db);
        return;
      }
      await db.transaction().execute(async (trx) => {
        for (const statement of SQLITE) await sql.raw(statement).execute(trx);
      });
    },
  };
}

const TEXTS_BY_RECIPIENT = `CREATE INDEX "messages_texts_by_recipient" ON "messages" ("merchant_id", "recipient", "created_at") WHERE "channel" = 'sms'`;
const HOLDING_SECRETS = `CREATE INDEX "events_holding_secrets" ON "events" ("created_at") WHERE "holds_secret" = 1`;

const POSTGRES = [
  'ALTER TABLE "payment_requests" DROP CONSTRAINT "payment_requests_sales_id_key"',
  'ALTER TABLE "messages" DROP CONSTRAINT "messages_id_key"',
  'DROP INDEX "messages_by_recipient"',
  TEXTS_BY_RECIPIENT,
  'DROP INDEX "events_holding_secrets"',
  HOLDING_SECRETS,
];

const SQLITE = [
  `CREATE TABLE "payment_requests_new" ("id" text primary key, "client_id" text not null references "clients" ("id"),
    "merchant_id" text not null references "merchants" ("id"), "customer_id" text, "token_hash" text not null unique,
    "source" text not null, "order_id" text not null, "amount" bigint not null, "discount" bigint not null,
    "surcharge" bigint not null, "tax" bigint not null, "description" text not null, "invoice_number" text not null,
    "customer_name" text not null, "email" text not null, "phone" text not null, "preauth" integer not null,
    "pass_fee" integer not null, "require_3ds" integer not null, "allow_card" integer not null,
    "allow_ach" integer not null, "sub_merchant_key" text, "sales_id" text not null, "status" text not null,
    "transaction_id" text, "expires_at" text not null, "created_at" text not null, "paid_at" text)`,
  'INSERT INTO "payment_requests_new" SELECT * FROM "payment_requests"',
  `CREATE TABLE "payment_attempts_new" ("token_hash" text primary key,
    "request_id" text not null references "payment_requests_new" ("id"), "card_brand" text not null,
    "last_four" text not null, "exp_month" integer not null, "exp_year" integer not null, "outcome" text not null,
    "expires_at" text not null, "used_at" text)`,
  'INSERT INTO "payment_attempts_new" SELECT * FROM "payment_attempts"',
  'DROP TABLE "payment_attempts"',
  'DROP TABLE "payment_requests"',
  // Renaming the parent rewrites the child's reference to it, so the attempts point at "payment_requests" again.
  'ALTER TABLE "payment_requests_new" RENAME TO "payment_requests"',
  'ALTER TABLE "payment_attempts_new" RENAME TO "payment_attempts"',
  'CREATE INDEX "payment_requests_by_merchant" ON "payment_requests" ("merchant_id", "created_at")',

  `CREATE TABLE "messages_new" ("seq" integer primary key, "id" text not null,
    "client_id" text not null references "clients" ("id"), "merchant_id" text not null, "channel" text not null,
    "recipient" text not null, "body" text not null, "pay_link" text not null, "created_at" text not null)`,
  'INSERT INTO "messages_new" SELECT * FROM "messages"',
  'DROP TABLE "messages"',
  'ALTER TABLE "messages_new" RENAME TO "messages"',
  'CREATE INDEX "messages_by_client" ON "messages" ("client_id", "seq")',
  TEXTS_BY_RECIPIENT,

  `CREATE TABLE "merchant_orders_new" ("merchant_id" text not null, "order_id" text not null, "source" text not null,
    "created_at" text not null, constraint "merchant_orders_pk" primary key ("merchant_id", "order_id")) WITHOUT ROWID`,
  'INSERT INTO "merchant_orders_new" SELECT * FROM "merchant_orders"',
  'DROP TABLE "merchant_orders"',
  'ALTER TABLE "merchant_orders_new" RENAME TO "merchant_orders"',

  'DROP INDEX "events_holding_secrets"',
  HOLDING_SECRETS,
];
