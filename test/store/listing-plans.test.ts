import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { CompiledQuery } from 'kysely';
import { openStore } from '../../server/store/open.ts';
import type { Store } from '../../server/store/store.ts';
import { TEST_DATABASE_URL, testDatabases, type TestDatabase } from '../support/databases.ts';
import { customerHistorySql, eventHistorySql, merchantHistorySql, transactionHistorySql } from '../support/history.ts';
import { BACKFILL } from '../../server/store/migrations/012-listings-by-page.ts';

/**
 * Every listing reads through an index that matches its filter and its order (issue 31): a first page, a date range,
 * a page by cursor and a deep page number. Each runs the store's own queries, as it sends them, against a seeded
 * history, then asks the database how it answers each: on SQLite no table or index is scanned whole and no temporary
 * B-tree sorts; on PostgreSQL, VACUUM ANALYZE'd (statistics and visibility map) over a history big enough for the planner to weigh its
 * choices (a large merchant among fifty others, a year of days), no sequential scan and no sort.
 */
const BIG = { sqlite: 60_000, postgres: 50_000 } as const;
/** A deep page walks index entries only: SQLite's covering index, PostgreSQL's index-only scan. */
const INDEX_ONLY = { sqlite: 'COVERING INDEX ', postgres: 'Index Only Scan ' } as const;
const OTHERS = 50;
const OTHER_COUNT = 2_000;
const CUSTOMERS = 20_000;
const EVENTS = 20_000;
/** Approved merchants beside the review queue's pending ones. */
const MERCHANTS = 20_000;
const AT = '2026-11-01T00:00:00.000Z';

interface Explained { sql: string; plan: string; problems: string[] }

async function seededStore(database: TestDatabase) {
  const ran: CompiledQuery[] = [];
  const log = (event: { query: CompiledQuery }) => void ran.push(event.query);
  if (database === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'paykit-listing-plans-'));
    const store = await openStore({ dataDir: dir, log });
    const seeder = new SQLite(join(dir, 'paykit.sqlite'));
    for (const statement of seedStatements('sqlite')) seeder.exec(statement);
    seeder.close();
    const explainer = new SQLite(join(dir, 'paykit.sqlite'), { readonly: true });
    const explain = async (query: CompiledQuery): Promise<Explained> => {
      const rows = explainer.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...(query.parameters as unknown[])) as { detail: string }[];
      const plan = rows.map((r) => r.detail).join('\n');
      const problems = rows.map((r) => r.detail).filter((d) => /^SCAN /.test(d) || /TEMP B-TREE/.test(d));
      return { sql: query.sql, plan, problems };
    };
    return { store, ran, explain, close: async () => { explainer.close(); await store.close(); rmSync(dir, { recursive: true, force: true }); } };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const store = await openStore({ dataDir: 'memory', databaseUrl: TEST_DATABASE_URL, pgSchema: schema, log });
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${schema}` });
  await client.connect();
  // Seeded with the counting triggers off (a row-level trigger per row made it 40 s), then counted once, as the
  // migration counts the rows it finds. A platform's merchants without customers yet have their counter row at 0
  // (as a trigger leaves one), so the counters' table is as big as the planner would meet it. The foreign keys are
  // dropped and added back, checked in one pass, rather than checked row by row (11 s → 6 s).
  const foreignKeys = (await client.query(
    `SELECT conrelid::regclass::text AS "table", conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE contype = 'f' AND connamespace = $1::regnamespace`,
    [schema],
  )).rows as { table: string; name: string; definition: string }[];
  for (const key of foreignKeys) await client.query(`ALTER TABLE ${key.table} DROP CONSTRAINT "${key.name}"`);
  for (const table of COUNTED) await client.query(`ALTER TABLE "${table}" DISABLE TRIGGER USER`);
  for (const statement of seedStatements('postgres')) await client.query(statement);
  for (const table of COUNTED) await client.query(`ALTER TABLE "${table}" ENABLE TRIGGER USER`);
  for (const key of foreignKeys) await client.query(`ALTER TABLE ${key.table} ADD CONSTRAINT "${key.name}" ${key.definition}`);
  for (const statement of BACKFILL) await client.query(statement);
  await client.query(`INSERT INTO "customer_counts" SELECT "id", 0 FROM "merchants" WHERE "id" NOT IN (SELECT "merchant_id" FROM "customer_counts")`);
  // As autovacuum leaves a table at rest: statistics, and the visibility map that lets a deep page walk the index alone.
  await client.query('VACUUM ANALYZE');
  const explain = async (query: CompiledQuery): Promise<Explained> => {
    const result = await client.query(`EXPLAIN (FORMAT JSON) ${query.sql}`, query.parameters as unknown[]);
    const root = (result.rows[0] as { 'QUERY PLAN': { Plan: PgNode }[] })['QUERY PLAN'][0]!.Plan;
    const nodes = flatten(root);
    // A sort is a problem when it sorts a listing's rows; the per-day sums of the counters are one row per day.
    const sortsRows = (n: PgNode) => /Sort/.test(n['Node Type']) && flatten(n).some((below) => below['Relation Name'] && !COUNTERS.has(below['Relation Name']));
    // merchant_counts holds a row per merchant status, a handful whatever the platform's size: read whole, it is one page.
    const scansRows = (n: PgNode) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] !== 'merchant_counts';
    const problems = nodes.filter((n) => scansRows(n) || sortsRows(n)).map((n) => `${n['Node Type']} ${n['Relation Name'] ?? ''}`);
    return { sql: query.sql, plan: nodes.map((n) => `${n['Node Type']} ${n['Index Name'] ?? n['Relation Name'] ?? ''}`).join('\n'), problems };
  };
  return { store, ran, explain, close: async () => { await client.end(); await store.close(); } };
}

const COUNTED = ['transactions', 'customers', 'merchants', 'events'];
const COUNTERS = new Set(['transaction_counts', 'customer_counts', 'merchant_counts', 'event_counts']);
interface PgNode { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PgNode[] }
const flatten = (node: PgNode): PgNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];

function seedStatements(database: TestDatabase): string[] {
  const merchant = (id: string) =>
    `INSERT INTO "merchants" ("id", "client_id", "status", "business_name", "email", "first_name", "last_name", "phone", "website", "public_key", "created_at", "submitted_at")
     VALUES ('${id}', 'cl_plans', 'pending', 'Shop', 'shop@example.com', 'Ann', 'Lee', '', '', 'pk_${id}', '${AT}', '${AT}')`;
  const others = Array.from({ length: OTHERS }, (_, i) => `m_other_${i}`);
  const otherClients = Array.from({ length: OTHERS }, (_, i) => `cl_other_${i}`);
  return [
    `INSERT INTO "clients" ("id", "name", "secret_hash", "public_key", "created_at") VALUES ('cl_plans', 'Plans', 'x', 'pk_cl_plans', '${AT}')`,
    merchant('m_big'),
    ...others.map(merchant),
    transactionHistorySql(database, { clientId: 'cl_plans', merchantId: 'm_big', count: BIG[database], days: 365, end: '2026-10-31', prefix: 'big' }),
    ...others.map((id) => transactionHistorySql(database, { clientId: 'cl_plans', merchantId: id, count: OTHER_COUNT, days: 365, end: '2026-10-31', prefix: id })),
    merchantHistorySql(database, { clientId: 'cl_plans', count: MERCHANTS, end: '2026-10-31', prefix: 'done', status: 'completed' }),
    customerHistorySql(database, { merchantId: 'm_big', count: CUSTOMERS, end: '2026-10-31', prefix: 'big' }),
    ...others.map((id) => customerHistorySql(database, { merchantId: id, count: OTHER_COUNT, end: '2026-10-31', prefix: id })),
    eventHistorySql(database, { clientId: 'cl_plans', count: EVENTS, end: '2026-10-31', prefix: 'plans' }),
    ...otherClients.flatMap((id) => [
      `INSERT INTO "clients" ("id", "name", "secret_hash", "public_key", "created_at") VALUES ('${id}', 'Other', 'x', 'pk_${id}', '${AT}')`,
      eventHistorySql(database, { clientId: id, count: OTHER_COUNT, end: '2026-10-31', prefix: id }),
    ]),
  ];
}

for (const database of testDatabases()) {
  describe(`listing plans (${database})`, () => {
    let seeded: Awaited<ReturnType<typeof seededStore>>;
    before(async () => {
      seeded = await seededStore(database);
    });
    after(() => seeded.close());

    /** Runs one listing call and checks the plan of every query it sent; `uses` names an index one of them reads. */
    async function check<T>(name: string, call: (store: Store) => Promise<T>, uses: RegExp): Promise<T> {
      const from = seeded.ran.length;
      const result = await call(seeded.store);
      const sent = seeded.ran.slice(from);
      assert.ok(sent.length > 0, `${name}: no query sent`);
      const explained = await Promise.all(sent.map(seeded.explain));
      for (const e of explained) assert.deepEqual(e.problems, [], `${name}: ${e.sql}\n${e.plan}`);
      assert.ok(explained.some((e) => uses.test(e.plan)), `${name}: no query read ${uses}\n${explained.map((e) => e.plan).join('\n--\n')}`);
      return result;
    }

    test('transactions: first page, a date range, the next page by cursor and a deep page number', async () => {
      const listed = await check('first page', (s) => s.transactions.page('m_big', { view: 'listed' }, 20, { offset: 0 }), /transactions_listed/);
      assert.equal(listed.items.length, 20);
      assert.equal(listed.total, BIG[database] - BIG[database] / 50);
      await check('next page', (s) => s.transactions.page('m_big', { view: 'listed' }, 20, { after: listed.last! }), /transactions_listed/);
      const day = { view: 'listed' as const, from: '2026-06-01T00:00:00.000Z', to: '2026-06-02T00:00:00.000Z' };
      const oneDay = await check('one day', (s) => s.transactions.page('m_big', day, 20, { offset: 0 }), /transactions_listed/);
      assert.ok(oneDay.items.every((t) => t.created_at.startsWith('2026-06-01')));
      const deep = await check('deep page', (s) => s.transactions.page('m_big', { view: 'listed' }, 20, { offset: listed.total - 20 }), new RegExp(`${INDEX_ONLY[database]}transactions_listed`));
      assert.equal(deep.items.length, 20);
      assert.equal(deep.hasMore, false);
      await check('counters', (s) => s.transactions.page('m_big', day, 20, { offset: 0 }), /transaction_counts|PRIMARY KEY/);
      const small = await check('a small merchant', (s) => s.transactions.page('m_other_7', { view: 'listed' }, 20, { offset: 0 }), /transactions_listed/);
      assert.equal(small.total, OTHER_COUNT - OTHER_COUNT / 50);
      await check('a small merchant, deep', (s) => s.transactions.page('m_other_7', { view: 'listed' }, 20, { offset: 1_500 }), /transactions_listed/);
    });

    test("the widgets' table and the holds", async () => {
      const sales = await check('table', (s) => s.transactions.page('m_big', { view: 'completed_sales' }, 10, { offset: 0 }), /transactions_completed_sales/);
      assert.ok(sales.items.every((t) => t.kind === 'sale' && t.status === 'completed'));
      await check('table, next page', (s) => s.transactions.page('m_big', { view: 'completed_sales' }, 10, { after: sales.last! }), /transactions_completed_sales/);
      await check('table, deep page', (s) => s.transactions.page('m_big', { view: 'completed_sales' }, 10, { offset: sales.total - 5 }), new RegExp(`${INDEX_ONLY[database]}transactions_completed_sales`));
      const holds = await check('holds', (s) => s.transactions.page('m_big', { view: 'holds' }, 20, { offset: 0 }), /transactions_holds/);
      assert.equal(holds.total, BIG[database] / 50);
      await check('holds of a status', (s) => s.transactions.page('m_big', { view: 'holds', status: 'authorized' }, 20, { offset: 40 }), new RegExp(`${INDEX_ONLY[database]}transactions_holds`));
    });

    test("the payments console: filters with an index prefix use it, the rest walk the merchant's index with the filter", async () => {
      const date = { by: 'date', direction: 'desc' } as const;
      const amount = { by: 'amount', direction: 'desc' } as const;
      const first = await check('console, first page', (s) => s.consoleListing.page('m_big', {}, date, 20, { offset: 0 }), /transactions_listed/);
      assert.equal(first.total, BIG[database] - BIG[database] / 50);
      await check('console, next page', (s) => s.consoleListing.page('m_big', {}, date, 20, { after: first.last! }), /transactions_listed/);
      await check('console, oldest first', (s) => s.consoleListing.page('m_big', {}, { by: 'date', direction: 'asc' }, 20, { offset: 0 }), /transactions_listed/);
      const refunds = await check('console, refunds', (s) => s.consoleListing.page('m_big', { kind: 'refund' }, date, 20, { offset: 0 }), /transactions_listed/);
      assert.ok(refunds.items.every((t) => t.kind === 'refund'));
      await check('console, voided', (s) => s.consoleListing.page('m_big', { status: 'voided' }, date, 20, { offset: 0 }), /transactions_listed/);
      const byAmount = await check('console, by amount', (s) => s.consoleListing.page('m_big', {}, amount, 20, { offset: 0 }), /transactions_listed_by_amount/);
      await check('console, by amount, next page', (s) => s.consoleListing.page('m_big', {}, amount, 20, { after: byAmount.last! }), /transactions_listed_by_amount/);
      await check('console, by amount ascending', (s) => s.consoleListing.page('m_big', { kind: 'sale' }, { by: 'amount', direction: 'asc' }, 20, { offset: 0 }), /transactions_listed_by_amount/);
      const visa = await check('console, a card brand', (s) => s.consoleListing.page('m_big', { cardBrand: 'Visa' }, date, 20, { offset: 0 }), /transactions_listed/);
      assert.deepEqual([visa.total, visa.totalExact], [1_000, false], 'counted up to the bound');
      // A search's terms have no index of their own: SQLite walks the merchant's listing index with the filter. PostgreSQL's
      // planner, expecting an id or order id to match a row or two, reads the table instead (docs/decisions.md, "Console").
      if (database === 'sqlite') {
        const search = await check('console, a search that matches nothing', (s) => s.consoleListing.page('m_big', { search: { text: 'order-none', lastFour: undefined, amount: undefined } }, date, 20, { offset: 0 }), /transactions_listed/);
        assert.deepEqual([search.items.length, search.total], [0, 0]);
        await check('console, a search by last four in a date range', (s) => s.consoleListing.page('m_big', { from: '2026-06-01T00:00:00.000Z', to: '2026-06-08T00:00:00.000Z', search: { text: '4242', lastFour: '4242', amount: 424_200 } }, date, 20, { offset: 0 }), /transactions_listed/);
      }
      await check('console, completed sales', (s) => s.consoleListing.page('m_big', { kind: 'sale', status: 'completed' }, date, 20, { offset: 0 }), /transactions_listed|transactions_completed_sales/);
      await check('console, holds', (s) => s.consoleListing.page('m_big', { kind: 'hold' }, date, 20, { offset: 0 }), /transactions_holds/);
      await check("console, a sale's refunds", (s) => s.consoleListing.reversalsOf('m_big', 'txn_big_7'), /transactions_reversals/);
    });

    test('customers, webhook deliveries and the review queue', async () => {
      const customers = await check('customers', (s) => s.customers.page('m_big', 20, { offset: 0 }), /customers_by_merchant/);
      assert.equal(customers.total, CUSTOMERS);
      await check('customers, next page', (s) => s.customers.page('m_big', 20, { after: customers.last! }), /customers_by_merchant/);
      await check('customers, deep page', (s) => s.customers.page('m_big', 20, { offset: CUSTOMERS - 20 }), new RegExp(`${INDEX_ONLY[database]}customers_by_merchant`));
      await check('customers of a small merchant', (s) => s.customers.page('m_other_3', 20, { offset: 0 }), /customers_by_merchant/);
      const deliveries = await check('deliveries', (s) => s.events.deliveries('cl_plans', undefined, 20, { offset: 0 }), /events_by_client/);
      assert.equal(deliveries.total, EVENTS);
      await check('deliveries, next page', (s) => s.events.deliveries('cl_plans', undefined, 20, { after: deliveries.last! }), /events_by_client/);
      await check('deliveries of a small client', (s) => s.events.deliveries('cl_other_4', 'delivered', 20, { offset: 0 }), /events_by_client_status/);
      const pending = await check('pending deliveries, deep', (s) => s.events.deliveries('cl_plans', 'pending', 20, { offset: 1_000 }), new RegExp(`${INDEX_ONLY[database]}events_by_client_status`));
      assert.equal(pending.total, EVENTS / 10);
      const queue = await check('review queue', (s) => s.merchants.withStatus('pending', 20, 0), /merchants_by_status/);
      assert.equal(queue.total, OTHERS + 1);
      const approved = await check('approved applications, deep', (s) => s.merchants.withStatus('completed', 20, 2_000), /merchants_by_status/);
      assert.equal(approved.total, MERCHANTS);
    });
  });
}
