import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../schema.ts';
import { reversalEntries, saleEntries, type LedgerEntry, type MoneyRecord } from '../../domain/ledger.ts';

/**
 * The ledger and payouts (issue 45, docs/payouts.md).
 *
 * - `ledger_entries`: every movement of a merchant's money, written with the change that causes it; `payout_id` once a
 *   payout swept it. Each transaction makes at most one entry of a type (the key). Indexes: the unswept entries of a
 *   merchant by date (what a payout sweeps), a payout's entries in order, a merchant's entries by date (the CSV of a
 *   range).
 * - `ledger_balances`: the sum of a merchant's unswept entries per `available_on` date ('9999-12-31' for ACH money
 *   waiting for its bank), kept by triggers in the transaction of every write to the entries, as the listings'
 *   counters are (migration 012): a balance is a sum over a few dates, however long the merchant's history.
 * - `payouts`, one per merchant and period at most (the unique key several processes' runs meet on), and
 *   `payout_settings`: a merchant's schedule, the bank account it changed to, and whether a failed payout paused it.
 *
 * The entries of the transactions already there are written once, from the same domain rules as new ones, so an
 * upgraded database reconciles: all of it unswept, for the first payout run to pay out what is available.
 */
export function ledger(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const statements = [...(dialect === 'postgres' ? POSTGRES : SQLITE), ...COMMON];
      const apply = async (trx: Kysely<any>) => {
        for (const statement of statements) await sql.raw(statement).execute(trx);
        await writeEntriesOfExistingTransactions(trx);
      };
      // PostgreSQL's migrator already runs each migration in a transaction; SQLite's does not.
      if (db.isTransaction) await apply(db);
      else await db.transaction().execute(apply);
    },
  };
}

/** The `available_on` of money waiting for its bank in `ledger_balances`: pending, never available. */
const WAITING_FOR_BANK = '9999-12-31';

const UNSWEPT = '"payout_id" IS NULL';
const COMMON = [
  `CREATE INDEX "ledger_entries_unswept" ON "ledger_entries" ("merchant_id", "available_on") WHERE ${UNSWEPT}`,
  'CREATE INDEX "ledger_entries_by_payout" ON "ledger_entries" ("payout_id", "seq") WHERE "payout_id" IS NOT NULL',
  'CREATE INDEX "ledger_entries_by_merchant" ON "ledger_entries" ("merchant_id", "created_at", "seq")',
  'CREATE INDEX "payouts_by_merchant" ON "payouts" ("merchant_id", "created_at", "seq")',
  `CREATE INDEX "payouts_open" ON "payouts" ("status", "arrival_date") WHERE "status" IN ('pending', 'in_transit')`,
];

const entryColumns = (
  bigint: string,
) => `"merchant_id" text not null, "transaction_id" text not null, "type" text not null,
  "amount" ${bigint} not null, "available_on" text, "created_at" text not null, "payout_id" text`;
const payoutColumns = (
  bigint: string,
) => `"id" text not null unique, "client_id" text not null, "merchant_id" text not null,
  "period" text, "amount" ${bigint} not null, "entry_count" integer not null, "status" text not null,
  "bank_last_four" text not null, "arrival_date" text not null, "created_at" text not null, "updated_at" text not null,
  "failure_code" text, "failure_message" text, unique ("merchant_id", "period")`;
const settingsTable = `CREATE TABLE "payout_settings" ("merchant_id" text primary key, "interval" text not null,
  "weekly_anchor" text not null, "bank_last_four" text, "bank_routing_number" text, "paused_at" text, "updated_at" text not null)`;
const balancesTable = (
  bigint: string,
  withoutRowid: string,
) => `CREATE TABLE "ledger_balances" ("merchant_id" text not null,
  "available_on" text not null, "amount" ${bigint} not null, primary key ("merchant_id", "available_on"))${withoutRowid}`;

/** Adds `amount` to the balance of the entry `row`'s merchant and date (each statement of a trigger). */
const bump = (
  row: 'NEW' | 'OLD',
  sign: '+' | '-',
) => `INSERT INTO "ledger_balances" AS "b" ("merchant_id", "available_on", "amount")
  VALUES (${row}."merchant_id", coalesce(${row}."available_on", '${WAITING_FOR_BANK}'), ${sign}${row}."amount")
  ON CONFLICT ("merchant_id", "available_on") DO UPDATE SET "amount" = "b"."amount" + excluded."amount"`;
const moved = 'OLD."available_on" IS DISTINCT FROM NEW."available_on"';
/** PostgreSQL: adds the changes `deltas` lists (merchant, day, amount) to the balances, one row per merchant and day. */
const upsertDeltas = (deltas: string) => `INSERT INTO "ledger_balances" AS "b" ("merchant_id", "available_on", "amount")
    SELECT "merchant_id", "day", sum("amount") FROM (${deltas}) AS "d" GROUP BY "merchant_id", "day" HAVING sum("amount") <> 0
    ON CONFLICT ("merchant_id", "available_on") DO UPDATE SET "amount" = "b"."amount" + excluded."amount"`;

const SQLITE = [
  `CREATE TABLE "ledger_entries" ("seq" integer primary key, ${entryColumns('integer')}, unique ("transaction_id", "type"))`,
  balancesTable('integer', ' WITHOUT ROWID'),
  `CREATE TABLE "payouts" ("seq" integer primary key, ${payoutColumns('integer')})`,
  settingsTable,
  `CREATE TRIGGER "ledger_balances_insert" AFTER INSERT ON "ledger_entries" FOR EACH ROW WHEN NEW."payout_id" IS NULL BEGIN ${bump('NEW', '+')}; END`,
  `CREATE TRIGGER "ledger_balances_leave" AFTER UPDATE OF "payout_id", "available_on" ON "ledger_entries" FOR EACH ROW
    WHEN OLD."payout_id" IS NULL AND (NEW."payout_id" IS NOT NULL OR ${moved}) BEGIN ${bump('OLD', '-')}; END`,
  `CREATE TRIGGER "ledger_balances_enter" AFTER UPDATE OF "payout_id", "available_on" ON "ledger_entries" FOR EACH ROW
    WHEN NEW."payout_id" IS NULL AND (OLD."payout_id" IS NOT NULL OR ${moved}) BEGIN ${bump('NEW', '+')}; END`,
];

const POSTGRES = [
  `CREATE TABLE "ledger_entries" ("seq" bigserial, ${entryColumns('bigint')}, primary key ("transaction_id", "type"))`,
  balancesTable('bigint', ''),
  `CREATE TABLE "payouts" ("seq" bigserial primary key, ${payoutColumns('bigint')})`,
  settingsTable,
  // Once per statement, over all the rows it wrote (the inserts of a change's one statement of CTEs merge into one
  // transition table): a row trigger would update one date's balance once per entry, and a sweep of 100,000 entries in
  // one transaction then walks a chain of as many row versions each time (quadratic: 10,000 entries took 8 s).
  // `SET search_path FROM CURRENT` binds the functions to the schema they were made in (as migration 012's).
  `CREATE FUNCTION "ledger_balances_add"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
  BEGIN
    ${upsertDeltas(`SELECT "merchant_id", coalesce("available_on", '${WAITING_FOR_BANK}') AS "day", "amount" FROM "new" WHERE "payout_id" IS NULL`)};
    RETURN NULL;
  END $$`,
  `CREATE FUNCTION "ledger_balances_move"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
  BEGIN
    ${upsertDeltas(`SELECT "merchant_id", coalesce("available_on", '${WAITING_FOR_BANK}') AS "day", "amount" FROM "new" WHERE "payout_id" IS NULL
      UNION ALL SELECT "merchant_id", coalesce("available_on", '${WAITING_FOR_BANK}'), -"amount" FROM "old" WHERE "payout_id" IS NULL`)};
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER "ledger_balances_insert" AFTER INSERT ON "ledger_entries" REFERENCING NEW TABLE AS "new" FOR EACH STATEMENT EXECUTE FUNCTION "ledger_balances_add"()`,
  `CREATE TRIGGER "ledger_balances_update" AFTER UPDATE ON "ledger_entries" REFERENCING OLD TABLE AS "old" NEW TABLE AS "new" FOR EACH STATEMENT EXECUTE FUNCTION "ledger_balances_move"()`,
];

type Row = MoneyRecord & { seq: number; parent_id: string | null; status: string };
const BATCH = 1000;

/** The entries of every sale, refund, void and return already written, in the order they were written. */
async function writeEntriesOfExistingTransactions(db: Kysely<any>): Promise<void> {
  const columns = [
    'seq',
    'id',
    'merchant_id',
    'kind',
    'method',
    'status',
    'amount',
    'fee_amount',
    'completed_at',
    'created_at',
    'parent_id',
  ];
  const read = async (query: Promise<unknown[]>) =>
    ((await query) as Row[]).map((r) => ({
      ...r,
      seq: Number(r.seq),
      amount: Number(r.amount),
      fee_amount: Number(r.fee_amount),
    }));
  for (let after = 0; ;) {
    const rows = await read(
      db
        .selectFrom('transactions')
        .select(columns)
        .where('seq', '>', after)
        .where('kind', 'in', ['sale', 'refund', 'void', 'ach_return'])
        .orderBy('seq')
        .limit(BATCH)
        .execute(),
    );
    if (rows.length === 0) return;
    after = rows.at(-1)!.seq;
    const parentIds = [...new Set(rows.map((r) => r.parent_id).filter((id): id is string => id !== null))];
    const parents = new Map(
      (parentIds.length === 0
        ? []
        : await read(db.selectFrom('transactions').select(columns).where('id', 'in', parentIds).execute())
      ).map((r) => [r.id, r]),
    );
    const declinedIds = rows.filter((r) => r.kind === 'sale' && r.status === 'declined').map((r) => r.id);
    const returns = new Map(
      (declinedIds.length === 0
        ? []
        : await read(
            db
              .selectFrom('transactions')
              .select(columns)
              .where('kind', '=', 'ach_return')
              .where('parent_id', 'in', declinedIds)
              .execute(),
          )
      ).map((r) => [r.parent_id!, r.created_at]),
    );
    const entries: LedgerEntry[] = rows.flatMap((row) => {
      if (row.kind === 'sale') {
        // An ACH payment its bank declined: its money counted on the day of its return, which takes it back.
        const returnedAt = returns.get(row.id);
        return saleEntries(returnedAt ? { ...row, completed_at: returnedAt } : row);
      }
      const sale = parents.get(row.parent_id ?? '');
      return sale ? reversalEntries(row, sale, new Date(row.created_at)) : [];
    });
    if (entries.length > 0) await db.insertInto('ledger_entries').values(entries).execute();
  }
}
