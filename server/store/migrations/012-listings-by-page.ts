import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../schema.ts';

/**
 * Listings whose cost is the page, not the merchant's history (issue 31, docs/performance.md "Growth").
 *
 * - Each listing has an index matching its filter and its order, newest first by (`created_at`, `seq`): the listed
 *   transactions (sales, refunds, voids, returns), the widgets' completed sales, the holds, a merchant's customers, a
 *   client's webhook deliveries (of one status or all). The transactions' are partial, so the query names its kinds
 *   and status as literals (SQLite uses a partial index only for a term written the same). `transactions_by_merchant`
 *   is dropped: every query that read it now has an index of its own. Ordering by `created_at` first, not by `seq`
 *   alone, keeps PostgreSQL off the primary key: walking `seq` backwards and filtering by merchant looks cheap to its
 *   planner, which cannot know that a large merchant's rows may all sit far back (every row of the table read).
 * - `total` is read from counters, never by counting rows: transactions per merchant, UTC day, kind and status (a
 *   date range's total is a sum over its days, and a deep page finds its day from them), customers per merchant,
 *   merchants per status, events per client and delivery status. Triggers keep them in the transaction of the write
 *   that changes them: no write path can forget one, a crash rolls both back together, and no round trip is added.
 *   Events' counters are spread over 8 slots by `seq`, as every payment of every merchant of a client writes an
 *   event: on PostgreSQL one row per client would queue all of them on its lock.
 *
 * One transaction, at the first start on this version: the indexes are built and the counters filled from the rows
 * already there, which on a large PostgreSQL database holds writes to those tables until it ends (not CONCURRENTLY,
 * which cannot run in the migration's transaction).
 */
export function listingsByPage(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const statements = [...COMMON, ...(dialect === 'postgres' ? POSTGRES : SQLITE), ...BACKFILL];
      // PostgreSQL's migrator already runs each migration in a transaction; SQLite's does not.
      if (db.isTransaction) {
        for (const statement of statements) await sql.raw(statement).execute(db);
        return;
      }
      await db.transaction().execute(async (trx) => {
        for (const statement of statements) await sql.raw(statement).execute(trx);
      });
    },
  };
}

const LISTED = `"kind" IN ('sale', 'refund', 'void', 'ach_return')`;
const COMPLETED_SALES = `"kind" = 'sale' AND "status" = 'completed'`;
const HOLDS = `"kind" = 'preauth'`;
/** 8 slots for the events' counters. */
const EVENT_COUNT_SLOTS = 8;

const COMMON = [
  'DROP INDEX "transactions_by_merchant"',
  // `kind` and `status` after the order's columns: SQLite counts an equality of the partial condition as known from the
  // index, not an IN list, and a hold's status is a filter; with them in, a deep page's walk reads the index alone.
  `CREATE INDEX "transactions_listed" ON "transactions" ("merchant_id", "created_at", "seq", "kind") WHERE ${LISTED}`,
  `CREATE INDEX "transactions_completed_sales" ON "transactions" ("merchant_id", "created_at", "seq") WHERE ${COMPLETED_SALES}`,
  `CREATE INDEX "transactions_holds" ON "transactions" ("merchant_id", "created_at", "seq", "status") WHERE ${HOLDS}`,
  'DROP INDEX "merchants_by_status"',
  'CREATE INDEX "merchants_by_status" ON "merchants" ("status", "submitted_at", "id")',
  'DROP INDEX "customers_by_merchant"',
  'CREATE INDEX "customers_by_merchant" ON "customers" ("merchant_id", "created_at", "seq")',
  'DROP INDEX "events_by_client"',
  'CREATE INDEX "events_by_client" ON "events" ("client_id", "created_at", "seq")',
  'CREATE INDEX "events_by_client_status" ON "events" ("client_id", "delivery_status", "created_at", "seq")',
];

const counterTables = (bigint: string, withoutRowid: string) => [
  `CREATE TABLE "transaction_counts" ("merchant_id" text not null, "day" text not null, "kind" text not null,
    "status" text not null, "n" ${bigint} not null, primary key ("merchant_id", "day", "kind", "status"))${withoutRowid}`,
  `CREATE TABLE "customer_counts" ("merchant_id" text primary key, "n" ${bigint} not null)${withoutRowid}`,
  `CREATE TABLE "merchant_counts" ("status" text primary key, "n" ${bigint} not null)${withoutRowid}`,
  `CREATE TABLE "event_counts" ("client_id" text not null, "delivery_status" text not null, "slot" integer not null,
    "n" ${bigint} not null, primary key ("client_id", "delivery_status", "slot"))${withoutRowid}`,
];

/** Adds `delta` to one counter row, creating it at `delta`. */
const bump = (table: string, key: Record<string, string>, delta: '1' | '-1') => {
  const columns = Object.keys(key);
  return `INSERT INTO "${table}" AS "c" (${columns.map((c) => `"${c}"`).join(', ')}, "n") VALUES (${Object.values(key).join(', ')}, ${delta})
    ON CONFLICT (${columns.map((c) => `"${c}"`).join(', ')}) DO UPDATE SET "n" = "c"."n" + ${delta}`;
};

const day = (row: string) => `substr(${row}."created_at", 1, 10)`;
const transactionKey = (row: string) => ({
  merchant_id: `${row}."merchant_id"`,
  day: day(row),
  kind: `${row}."kind"`,
  status: `${row}."status"`,
});
const eventKey = (row: string) => ({
  client_id: `${row}."client_id"`,
  delivery_status: `${row}."delivery_status"`,
  slot: `${row}."seq" % ${EVENT_COUNT_SLOTS}`,
});
const customerKey = (row: string) => ({ merchant_id: `${row}."merchant_id"` });
const merchantKey = (row: string) => ({ status: `${row}."status"` });
const transactionMoved = `OLD."merchant_id" IS DISTINCT FROM NEW."merchant_id" OR OLD."kind" IS DISTINCT FROM NEW."kind"
  OR OLD."status" IS DISTINCT FROM NEW."status" OR substr(OLD."created_at", 1, 10) IS DISTINCT FROM substr(NEW."created_at", 1, 10)`;

/** One trigger per change on SQLite, each a list of statements. */
function sqliteTrigger(name: string, event: string, when: string | undefined, body: string[]): string {
  return `CREATE TRIGGER "${name}" AFTER ${event} FOR EACH ROW${when ? ` WHEN ${when}` : ''} BEGIN ${body.map((s) => `${s};`).join(' ')} END`;
}

const SQLITE = [
  ...counterTables('integer', ' WITHOUT ROWID'),
  sqliteTrigger('transaction_counts_insert', 'INSERT ON "transactions"', undefined, [
    bump('transaction_counts', transactionKey('NEW'), '1'),
  ]),
  sqliteTrigger(
    'transaction_counts_update',
    'UPDATE OF "merchant_id", "kind", "status", "created_at" ON "transactions"',
    transactionMoved,
    [bump('transaction_counts', transactionKey('OLD'), '-1'), bump('transaction_counts', transactionKey('NEW'), '1')],
  ),
  sqliteTrigger('transaction_counts_delete', 'DELETE ON "transactions"', undefined, [
    bump('transaction_counts', transactionKey('OLD'), '-1'),
  ]),
  sqliteTrigger('customer_counts_insert', 'INSERT ON "customers"', undefined, [
    bump('customer_counts', customerKey('NEW'), '1'),
  ]),
  sqliteTrigger('customer_counts_delete', 'DELETE ON "customers"', undefined, [
    bump('customer_counts', customerKey('OLD'), '-1'),
  ]),
  sqliteTrigger('merchant_counts_insert', 'INSERT ON "merchants"', undefined, [
    bump('merchant_counts', merchantKey('NEW'), '1'),
  ]),
  sqliteTrigger(
    'merchant_counts_update',
    'UPDATE OF "status" ON "merchants"',
    'OLD."status" IS DISTINCT FROM NEW."status"',
    [bump('merchant_counts', merchantKey('OLD'), '-1'), bump('merchant_counts', merchantKey('NEW'), '1')],
  ),
  sqliteTrigger('merchant_counts_delete', 'DELETE ON "merchants"', undefined, [
    bump('merchant_counts', merchantKey('OLD'), '-1'),
  ]),
  sqliteTrigger('event_counts_insert', 'INSERT ON "events"', undefined, [bump('event_counts', eventKey('NEW'), '1')]),
  sqliteTrigger(
    'event_counts_update',
    'UPDATE OF "client_id", "delivery_status" ON "events"',
    'OLD."client_id" IS DISTINCT FROM NEW."client_id" OR OLD."delivery_status" IS DISTINCT FROM NEW."delivery_status"',
    [bump('event_counts', eventKey('OLD'), '-1'), bump('event_counts', eventKey('NEW'), '1')],
  ),
  sqliteTrigger('event_counts_delete', 'DELETE ON "events"', undefined, [bump('event_counts', eventKey('OLD'), '-1')]),
];

/**
 * One function per counted table on PostgreSQL, run after each row's change. `SET search_path FROM CURRENT` binds
 * the function to the schema it was made in, whatever schema the session that writes has in its path.
 */
function postgresCounter(
  table: string,
  counter: string,
  key: (row: string) => Record<string, string>,
  columns: string,
  moved: string,
): string[] {
  const fn = `${counter}_follow`;
  return [
    `CREATE FUNCTION "${fn}"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
    BEGIN
      IF TG_OP IN ('UPDATE', 'DELETE') THEN ${bump(counter, key('OLD'), '-1')}; END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') THEN ${bump(counter, key('NEW'), '1')}; END IF;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER "${counter}_insert_delete" AFTER INSERT OR DELETE ON "${table}" FOR EACH ROW EXECUTE FUNCTION "${fn}"()`,
    `CREATE TRIGGER "${counter}_update" AFTER UPDATE OF ${columns} ON "${table}" FOR EACH ROW WHEN (${moved}) EXECUTE FUNCTION "${fn}"()`,
  ];
}

const POSTGRES = [
  ...counterTables('bigint', ''),
  ...postgresCounter(
    'transactions',
    'transaction_counts',
    transactionKey,
    '"merchant_id", "kind", "status", "created_at"',
    transactionMoved,
  ),
  ...postgresCounter(
    'customers',
    'customer_counts',
    customerKey,
    '"merchant_id"',
    'OLD."merchant_id" IS DISTINCT FROM NEW."merchant_id"',
  ),
  ...postgresCounter(
    'merchants',
    'merchant_counts',
    merchantKey,
    '"status"',
    'OLD."status" IS DISTINCT FROM NEW."status"',
  ),
  ...postgresCounter(
    'events',
    'event_counts',
    eventKey,
    '"client_id", "delivery_status"',
    'OLD."client_id" IS DISTINCT FROM NEW."client_id" OR OLD."delivery_status" IS DISTINCT FROM NEW."delivery_status"',
  ),
];

/** The counters of the rows already there, once (also a test's, after it seeded a history with the triggers off). */
export const BACKFILL = [
  `INSERT INTO "transaction_counts" SELECT "merchant_id", substr("created_at", 1, 10), "kind", "status", count(*) FROM "transactions" GROUP BY 1, 2, 3, 4`,
  'INSERT INTO "customer_counts" SELECT "merchant_id", count(*) FROM "customers" GROUP BY 1',
  'INSERT INTO "merchant_counts" SELECT "status", count(*) FROM "merchants" GROUP BY 1',
  `INSERT INTO "event_counts" SELECT "client_id", "delivery_status", "seq" % ${EVENT_COUNT_SLOTS}, count(*) FROM "events" GROUP BY 1, 2, 3`,
];
