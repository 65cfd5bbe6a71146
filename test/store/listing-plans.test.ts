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
import {
  customerHistorySql,
  eventHistorySql,
  merchantHistorySql,
  paymentRequestHistorySql,
  transactionHistorySql,
} from '../support/history.ts';
import { BACKFILL } from '../../server/store/migrations/012-listings-by-page.ts';
import type { ConsoleFilter, ConsoleKey, ConsoleOrder } from '../../server/store/console-listing.ts';
import type { PageStart } from '../../server/store/pages.ts';
import type { Transaction } from '../../server/store/transactions.ts';
import { searchTerms } from '../../server/domain/console.ts';

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
const DATE = { by: 'date', direction: 'desc' } as const;
/** The console's listings of every row or every hold: the merchant's range of their own partial index is what they read. */
const WHOLE = new Set([
  'console, first page',
  'console, next page',
  'console, oldest first',
  'console, by amount',
  'console, by amount, next page',
  'console, holds',
]);
const AMOUNT = { by: 'amount', direction: 'desc' } as const;

interface Explained {
  sql: string;
  plan: string;
  problems: string[];
}
/**
 * What a plan may do, beyond reading index ranges in order: sort what it read (where the listing's index cannot give its
 * order); `narrow`: each range of transactions must be narrower than the merchant's (a filtered console listing).
 */
interface Rules {
  sorts?: boolean;
  narrow?: boolean;
}

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
    const tables = new Set(
      explainer.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[],
    );
    const explain = async (query: CompiledQuery, rules: Rules = {}): Promise<Explained> => {
      const rows = explainer.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...(query.parameters as unknown[])) as {
        id: number;
        parent: number;
        detail: string;
      }[];
      const plan = rows.map((r) => r.detail).join('\n');
      const byId = new Map(rows.map((r) => [r.id, r]));
      // A merge of index ranges (a compound SELECT) sorts each range's first rows: a page's worth, not the history.
      const inMerge = (row: { parent: number }): boolean => {
        const parent = byId.get(row.parent);
        return parent !== undefined && (/^MERGE /.test(parent.detail) || inMerge(parent));
      };
      const problems = rows
        .filter(
          (r) =>
            (/^SCAN (\S+)/.test(r.detail) && tables.has(r.detail.split(' ')[1]!)) ||
            (/TEMP B-TREE/.test(r.detail) && !rules.sorts && !inMerge(r)) ||
            (rules.narrow && /^SEARCH transactions USING (COVERING )?INDEX \S+ \(merchant_id=\?\)$/.test(r.detail)),
        )
        .map((r) => r.detail);
      return { sql: query.sql, plan, problems };
    };
    return {
      store,
      ran,
      explain,
      close: async () => {
        explainer.close();
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const store = await openStore({ dataDir: 'memory', databaseUrl: TEST_DATABASE_URL, pgSchema: schema, log });
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${schema}` });
  await client.connect();
  // Seeded with the counting triggers off (a row-level trigger per row made it 40 s), then counted once, as the
  // migration counts the rows it finds. A platform's merchants without customers yet have their counter row at 0
  // (as a trigger leaves one), so the counters' table is as big as the planner would meet it. The foreign keys are
  // dropped and added back, checked in one pass, rather than checked row by row (11 s → 6 s).
  const foreignKeys = (
    await client.query(
      `SELECT conrelid::regclass::text AS "table", conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE contype = 'f' AND connamespace = $1::regnamespace`,
      [schema],
    )
  ).rows as { table: string; name: string; definition: string }[];
  for (const key of foreignKeys) await client.query(`ALTER TABLE ${key.table} DROP CONSTRAINT "${key.name}"`);
  for (const table of COUNTED) await client.query(`ALTER TABLE "${table}" DISABLE TRIGGER USER`);
  for (const statement of seedStatements('postgres')) await client.query(statement);
  for (const table of COUNTED) await client.query(`ALTER TABLE "${table}" ENABLE TRIGGER USER`);
  for (const key of foreignKeys)
    await client.query(`ALTER TABLE ${key.table} ADD CONSTRAINT "${key.name}" ${key.definition}`);
  for (const statement of BACKFILL) await client.query(statement);
  await client.query(
    `INSERT INTO "customer_counts" SELECT "id", 0 FROM "merchants" WHERE "id" NOT IN (SELECT "merchant_id" FROM "customer_counts")`,
  );
  // As autovacuum leaves a table at rest: statistics, and the visibility map that lets a deep page walk the index alone.
  await client.query('VACUUM ANALYZE');
  const explain = async (query: CompiledQuery, rules: Rules = {}): Promise<Explained> => {
    const result = await client.query(`EXPLAIN (FORMAT JSON) ${query.sql}`, query.parameters as unknown[]);
    const root = (result.rows[0] as { 'QUERY PLAN': { Plan: PgNode }[] })['QUERY PLAN'][0]!.Plan;
    const nodes = flatten(root);
    // A sort is a problem when it sorts a listing's rows not bounded by a LIMIT below it (a merge of index ranges sorts
    // each range's first rows); the per-day sums of the counters are one row per day.
    const unbounded = (n: PgNode): boolean =>
      n['Node Type'] !== 'Limit' &&
      (Boolean(n['Relation Name'] && !COUNTERS.has(n['Relation Name'])) || (n.Plans ?? []).some(unbounded));
    const sortsRows = (n: PgNode) => /Sort/.test(n['Node Type']) && !rules.sorts && (n.Plans ?? []).some(unbounded);
    // merchant_counts holds a row per merchant status, a handful whatever the platform's size: read whole, it is one page.
    const scansRows = (n: PgNode) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] !== 'merchant_counts';
    // An index range of the merchant alone is its whole history: right for the unfiltered listing only.
    const wholeMerchant = (n: PgNode) =>
      rules.narrow && n['Relation Name'] === 'transactions' && /^\(merchant_id = [^)]*\)$/.test(n['Index Cond'] ?? '');
    const problems = nodes
      .filter((n) => scansRows(n) || sortsRows(n) || wholeMerchant(n))
      .map((n) => `${n['Node Type']} ${n['Index Name'] ?? n['Relation Name'] ?? ''} ${n['Index Cond'] ?? ''}`);
    return {
      sql: query.sql,
      plan: nodes
        .map((n) => `${n['Node Type']} ${n['Index Name'] ?? n['Relation Name'] ?? ''} ${n['Index Cond'] ?? ''}`)
        .join('\n'),
      problems,
    };
  };
  return {
    store,
    ran,
    explain,
    close: async () => {
      await client.end();
      await store.close();
    },
  };
}

const COUNTED = ['transactions', 'customers', 'merchants', 'events'];
const COUNTERS = new Set(['transaction_counts', 'customer_counts', 'merchant_counts', 'event_counts']);
interface PgNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PgNode[];
}
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
    transactionHistorySql(database, {
      clientId: 'cl_plans',
      merchantId: 'm_big',
      count: BIG[database],
      days: 365,
      end: '2026-10-31',
      prefix: 'big',
    }),
    // One completed sale in a hundred of the large merchant's is disputed (migration 026's partial index holds them).
    `UPDATE "transactions" SET "dispute_id" = 'dp_' || "id" WHERE "merchant_id" = 'm_big' AND "kind" = 'sale' AND "status" = 'completed' AND "seq" % 100 = 3`,
    paymentRequestHistorySql(database, {
      clientId: 'cl_plans',
      merchantId: 'm_big',
      count: BIG[database],
      days: 365,
      end: '2026-10-31',
      prefix: 'big',
    }),
    ...others.map((id) =>
      transactionHistorySql(database, {
        clientId: 'cl_plans',
        merchantId: id,
        count: OTHER_COUNT,
        days: 365,
        end: '2026-10-31',
        prefix: id,
      }),
    ),
    merchantHistorySql(database, {
      clientId: 'cl_plans',
      count: MERCHANTS,
      end: '2026-10-31',
      prefix: 'done',
      status: 'completed',
    }),
    customerHistorySql(database, { merchantId: 'm_big', count: CUSTOMERS, end: '2026-10-31', prefix: 'big' }),
    ...others.map((id) =>
      customerHistorySql(database, { merchantId: id, count: OTHER_COUNT, end: '2026-10-31', prefix: id }),
    ),
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
    async function check<T>(
      name: string,
      call: (store: Store) => Promise<T>,
      uses: RegExp,
      rules: Rules = {},
    ): Promise<T> {
      rules =
        name.startsWith('search') || (name.startsWith('console, ') && !WHOLE.has(name))
          ? { narrow: true, ...rules }
          : rules;
      const from = seeded.ran.length;
      const result = await call(seeded.store);
      // A long read's transaction on PostgreSQL: BEGIN, its statement timeout, COMMIT.
      const sent = seeded.ran.slice(from).filter((q) => /^select /i.test(q.sql) && !/set_config/.test(q.sql));
      assert.ok(sent.length > 0, `${name}: no query sent`);
      const explained: Explained[] = [];
      for (const query of sent) explained.push(await seeded.explain(query, rules));
      for (const e of explained) assert.deepEqual(e.problems, [], `${name}: ${e.sql}\n${e.plan}`);
      assert.ok(
        explained.some((e) => uses.test(e.plan)),
        `${name}: no query read ${uses}\n${explained.map((e) => e.plan).join('\n--\n')}`,
      );
      return result;
    }

    test('transactions: first page, a date range, the next page by cursor and a deep page number', async () => {
      const listed = await check(
        'first page',
        (s) => s.transactions.page('m_big', { view: 'listed' }, 20, { offset: 0 }),
        /transactions_listed/,
      );
      assert.equal(listed.items.length, 20);
      assert.equal(listed.total, BIG[database] - BIG[database] / 50);
      await check(
        'next page',
        (s) => s.transactions.page('m_big', { view: 'listed' }, 20, { after: listed.last! }),
        /transactions_listed/,
      );
      const day = { view: 'listed' as const, from: '2026-06-01T00:00:00.000Z', to: '2026-06-02T00:00:00.000Z' };
      const oneDay = await check(
        'one day',
        (s) => s.transactions.page('m_big', day, 20, { offset: 0 }),
        /transactions_listed/,
      );
      assert.ok(oneDay.items.every((t) => t.created_at.startsWith('2026-06-01')));
      const deep = await check(
        'deep page',
        (s) => s.transactions.page('m_big', { view: 'listed' }, 20, { offset: listed.total - 20 }),
        new RegExp(`${INDEX_ONLY[database]}transactions_listed`),
      );
      assert.equal(deep.items.length, 20);
      assert.equal(deep.hasMore, false);
      await check(
        'counters',
        (s) => s.transactions.page('m_big', day, 20, { offset: 0 }),
        /transaction_counts|PRIMARY KEY/,
      );
      const small = await check(
        'a small merchant',
        (s) => s.transactions.page('m_other_7', { view: 'listed' }, 20, { offset: 0 }),
        /transactions_listed/,
      );
      assert.equal(small.total, OTHER_COUNT - OTHER_COUNT / 50);
      await check(
        'a small merchant, deep',
        (s) => s.transactions.page('m_other_7', { view: 'listed' }, 20, { offset: 1_500 }),
        /transactions_listed/,
      );
    });

    test("the widgets' table and the holds", async () => {
      const sales = await check(
        'table',
        (s) => s.transactions.page('m_big', { view: 'completed_sales' }, 10, { offset: 0 }),
        /transactions_completed_sales/,
      );
      assert.ok(sales.items.every((t) => t.kind === 'sale' && t.status === 'completed'));
      await check(
        'table, next page',
        (s) => s.transactions.page('m_big', { view: 'completed_sales' }, 10, { after: sales.last! }),
        /transactions_completed_sales/,
      );
      await check(
        'table, deep page',
        (s) => s.transactions.page('m_big', { view: 'completed_sales' }, 10, { offset: sales.total - 5 }),
        new RegExp(`${INDEX_ONLY[database]}transactions_completed_sales`),
      );
      const holds = await check(
        'holds',
        (s) => s.transactions.page('m_big', { view: 'holds' }, 20, { offset: 0 }),
        /transactions_holds/,
      );
      assert.equal(holds.total, BIG[database] / 50);
      await check(
        'holds of a status',
        (s) => s.transactions.page('m_big', { view: 'holds', status: 'authorized' }, 20, { offset: 40 }),
        new RegExp(`${INDEX_ONLY[database]}transactions_holds`),
      );
    });

    /** The console's listing as the service reads it (a long read: the reader thread, or a transaction with a time limit). */
    const consolePage =
      (
        filter: ConsoleFilter,
        order: ConsoleOrder = DATE,
        start: PageStart<ConsoleKey> = { offset: 0 },
        merchant = 'm_big',
      ) =>
      (s: Store) =>
        s.longRead('listing', (reader) => reader.consoleListing.page(merchant, filter, order, 20, start));
    const search = (q: string) => searchTerms(q);
    const JUNE = { from: '2026-06-01T00:00:00.000Z', to: '2026-06-08T00:00:00.000Z' };

    test('the payments console: every filter, alone and together, in either order, reads the index ranges of its states and brand', async () => {
      const first = await check('console, first page', consolePage({}), /transactions_listed/);
      assert.equal(first.total, BIG[database] - BIG[database] / 50);
      await check('console, next page', consolePage({}, DATE, { after: first.last! }), /transactions_listed/);
      await check('console, oldest first', consolePage({}, { by: 'date', direction: 'asc' }), /transactions_listed/);
      const byAmount = await check('console, by amount', consolePage({}, AMOUNT), /transactions_by_amount/);
      await check(
        'console, by amount, next page',
        consolePage({}, AMOUNT, { after: byAmount.last! }),
        /transactions_by_amount/,
      );
      await check('console, holds', consolePage({ kind: 'hold' }), /transactions_holds/);
      await check('console, holds by amount', consolePage({ kind: 'hold' }, AMOUNT), /transactions_by_state_amount/);
      await check('console, one week', consolePage(JUNE), /transactions_listed/);
      await check('console, counters', consolePage({ kind: 'refund', ...JUNE }), /transaction_counts|PRIMARY KEY/);
      const cases: [string, ConsoleFilter, (t: Transaction) => boolean][] = [
        ['sales', { kind: 'sale' }, (t) => t.kind === 'sale'],
        ['refunds', { kind: 'refund' }, (t) => t.kind === 'refund'],
        ['voids', { kind: 'void' }, () => false],
        ['completed', { status: 'completed' }, (t) => t.status === 'completed' && t.refunded_amount === 0],
        ['refunded', { status: 'refunded' }, (t) => t.kind === 'sale' && t.refunded_amount > 0],
        ['voided', { status: 'voided' }, (t) => t.status === 'voided'],
        ['pending', { status: 'pending' }, (t) => t.status === 'pending'],
        ['declined', { status: 'declined' }, (t) => t.status === 'declined'],
        ['refunded sales', { kind: 'sale', status: 'refunded' }, (t) => t.refunded_amount > 0],
        [
          'completed sales',
          { kind: 'sale', status: 'completed' },
          (t) => t.kind === 'sale' && t.status === 'completed' && t.refunded_amount === 0,
        ],
        ['a card brand', { cardBrand: 'American Express' }, (t) => t.card_brand === 'American Express'],
        ['ACH', { cardBrand: 'ACH' }, (t) => t.card_brand === 'ACH'],
        [
          'a brand, refunded',
          { cardBrand: 'Visa', status: 'refunded' },
          (t) => t.card_brand === 'Visa' && t.refunded_amount > 0,
        ],
        [
          'a brand, a kind, a status, a week',
          { cardBrand: 'Mastercard', kind: 'sale', status: 'completed', ...JUNE },
          (t) => t.card_brand === 'Mastercard' && t.created_at.startsWith('2026-06-0'),
        ],
        ['holds, voided', { kind: 'hold', status: 'voided' }, () => false],
        [
          'holds of a brand',
          { kind: 'hold', cardBrand: 'Discover' },
          (t) => t.kind === 'preauth' && t.card_brand === 'Discover',
        ],
        [
          'refunded in a week',
          { status: 'refunded', ...JUNE },
          (t) => t.refunded_amount > 0 && t.created_at.startsWith('2026-06-0'),
        ],
      ];
      for (const [name, filter, holds] of cases) {
        const uses = filter.cardBrand ? /transactions_by_brand/ : /transactions_by_state/;
        for (const order of [DATE, AMOUNT, { by: 'amount', direction: 'asc' } as const]) {
          // Amount order within dates: the week's rows are counted (at most SORT_BOUND) and sorted.
          const dated = order.by === 'amount' && filter.from !== undefined;
          const page = await check(
            `console, ${name}, by ${order.by} ${order.direction}`,
            consolePage(filter, order),
            dated ? uses : new RegExp(`${uses.source}${order.by === 'amount' ? '_amount' : ''}`),
            { sorts: dated },
          );
          assert.ok(
            page.items.every(holds),
            `${name}: ${page.items.map((t) => `${t.kind} ${t.status} ${t.card_brand} ${t.refunded_amount}`).join(', ')}`,
          );
          if (page.last)
            await check(`console, ${name}, next page`, consolePage(filter, order, { after: page.last }), uses, {
              sorts: dated,
            });
        }
      }
      const sent = seeded.ran.length;
      const none = await consolePage({ kind: 'refund', status: 'declined' })(seeded.store);
      const reads = seeded.ran.slice(sent).filter((q) => /^select /i.test(q.sql) && !/set_config/.test(q.sql));
      assert.deepEqual(
        [none.items.length, none.total, reads.length],
        [0, 0, 0],
        'a kind and a status that never meet read nothing',
      );
      await assert.rejects(
        check(
          'console, amount order over a year',
          consolePage({ from: '2025-11-01T00:00:00.000Z', to: '2026-11-01T00:00:00.000Z' }, AMOUNT),
          /transactions_listed/,
          { sorts: true },
        ),
        /covers at most 10,000/,
      );
    });

    test('the payments console: the disputed sales, by their own index, by date and by amount', async () => {
      for (const order of [DATE, AMOUNT]) {
        // Amount order: the disputed sales are counted (at most SORT_BOUND) and sorted, as a week's rows are. The
        // merchant's range of the disputed sales' own index is narrow already: it holds those alone.
        const rules = { sorts: order.by === 'amount', narrow: false };
        const name = `console, disputed, by ${order.by}`;
        const page = await check(name, consolePage({ status: 'disputed' }, order), /transactions_disputed/, rules);
        assert.equal(page.items.length, 20, name);
        assert.ok(
          page.items.every((t) => t.dispute_id && t.kind === 'sale'),
          name,
        );
        await check(
          `${name}, next page`,
          consolePage({ status: 'disputed' }, order, { after: page.last! }),
          /transactions_disputed/,
          rules,
        );
      }
    });

    test('the payments console: each search form reads its own index, with every filter', async () => {
      const byId = await check(
        'search, a transaction id',
        consolePage({ search: search('txn_big_7') }),
        /transactions_id_key|sqlite_autoindex_transactions_1/,
        { sorts: true },
      );
      assert.deepEqual(
        byId.items.map((t) => t.id),
        ['txn_big_7'],
      );
      const exact = await check(
        'search, an order id in another case',
        consolePage({ search: search('ORDER-BIG-12345') }),
        /transactions_by_order_key/,
        { sorts: true },
      );
      assert.deepEqual(
        exact.items.map((t) => t.order_id),
        ['Order-big-12345'],
      );
      const begun = await check(
        'search, the beginning of order ids',
        consolePage({ search: search('order-big-1234') }),
        /transactions_by_order_key/,
        { sorts: true },
      );
      assert.equal(begun.items.length, 11, 'order-big-1234 and order-big-12340 to 12349');
      assert.equal(begun.narrowed, undefined);
      const broad = await check(
        'search, a beginning of too many order ids',
        consolePage({ search: search('Order-Big-1') }),
        /transactions_by_order_key/,
        { sorts: true },
      );
      assert.deepEqual(
        broad.items.map((t) => t.order_id),
        ['Order-big-1'],
      );
      assert.match(broad.narrowed ?? '', /More than 1,000 order ids begin with "Order-Big-1"/);
      const fourDigits = (
        await check('search, a last four', consolePage({ search: search('4242') }), /transactions_by_last_four/, {
          sorts: true,
        })
      ).items;
      assert.ok(
        fourDigits.length > 0 && fourDigits.every((t) => t.last_four === '4242' || t.amount === 424_200),
        'a last four, or the amount 4,242.00',
      );
      const anAmount = await check(
        'search, an amount',
        consolePage({ search: search('123.45') }),
        /transactions_by_amount/,
        { sorts: true },
      );
      assert.ok(anAmount.items.every((t) => t.amount === 12_345));
      // Issue 44: an amount typed with its currency sign or grouping commas is the same index range.
      for (const typed of ['$123.45', '123.45 USD', '$1,234.56'])
        await check(
          `search, an amount typed ${typed}`,
          consolePage({ search: search(typed) }),
          /transactions_by_amount/,
          {
            sorts: true,
          },
        );
      const mailed = await check(
        'search, an e-mail in another case',
        consolePage({ search: search('SHOPPER11@example.com') }),
        /payment_requests_by_email/,
        { sorts: true },
      );
      assert.deepEqual(
        mailed.items.map((t) => t.id),
        ['txn_big_111'],
        'the one pay link sent to Shopper11@Example.com (i / 10 % 20,000 = 11)',
      );
      const nothing = await check(
        'search, nothing',
        consolePage({ search: search('no-such-thing') }),
        /transactions_by_order_key/,
        { sorts: true },
      );
      assert.deepEqual([nothing.items.length, nothing.total], [0, 0]);
      const filtered: [string, ConsoleFilter, RegExp][] = [
        [
          'a last four, refunded, a brand',
          { search: search('4242'), status: 'refunded', cardBrand: 'Visa' },
          /transactions_by_last_four/,
        ],
        ['an amount, sales', { search: search('123.45'), kind: 'sale' }, /transactions_by_state_amount/],
        ['an amount, a brand', { search: search('123.45'), cardBrand: 'Visa' }, /transactions_by_brand_amount/],
        ['an amount, a week', { search: search('123.45'), ...JUNE }, /transactions_by_amount/],
        [
          'an e-mail, refunds',
          { search: search('shopper11@example.com'), kind: 'refund' },
          /payment_requests_by_email/,
        ],
        ['an order id, holds', { search: search('order-big-100'), kind: 'hold' }, /transactions_by_order_key/],
      ];
      for (const [name, filter, uses] of filtered) {
        for (const order of [DATE, AMOUNT])
          await check(`search, ${name}, by ${order.by}`, consolePage(filter, order), uses, { sorts: true });
      }
      const amountOrder = await check(
        'search, a last four by amount',
        consolePage({ search: search('4242') }, AMOUNT),
        /transactions_by_last_four/,
        { sorts: true },
      );
      assert.deepEqual(
        amountOrder.items.map((t) => t.amount),
        amountOrder.items.map((t) => t.amount).sort((a, b) => b - a),
      );
      await check(
        "console, a sale's refunds",
        (s) => s.consoleListing.reversalsOf('m_big', 'txn_big_7'),
        /transactions_reversals/,
      );
      const small = await check(
        'search, a small merchant',
        consolePage({ search: search('4242') }, DATE, { offset: 0 }, 'm_other_7'),
        /transactions_by_last_four/,
        { sorts: true },
      );
      assert.ok(small.items.every((t) => t.merchant_id === 'm_other_7'));
    });

    test('customers, webhook deliveries and the review queue', async () => {
      const customers = await check(
        'customers',
        (s) => s.customers.page('m_big', 20, { offset: 0 }),
        /customers_by_merchant/,
      );
      assert.equal(customers.total, CUSTOMERS);
      await check(
        'customers, next page',
        (s) => s.customers.page('m_big', 20, { after: customers.last! }),
        /customers_by_merchant/,
      );
      await check(
        'customers, deep page',
        (s) => s.customers.page('m_big', 20, { offset: CUSTOMERS - 20 }),
        new RegExp(`${INDEX_ONLY[database]}customers_by_merchant`),
      );
      await check(
        'customers of a small merchant',
        (s) => s.customers.page('m_other_3', 20, { offset: 0 }),
        /customers_by_merchant/,
      );
      const deliveries = await check(
        'deliveries',
        (s) => s.events.deliveries('cl_plans', undefined, 20, { offset: 0 }),
        /events_by_client/,
      );
      assert.equal(deliveries.total, EVENTS);
      await check(
        'deliveries, next page',
        (s) => s.events.deliveries('cl_plans', undefined, 20, { after: deliveries.last! }),
        /events_by_client/,
      );
      await check(
        'deliveries of a small client',
        (s) => s.events.deliveries('cl_other_4', 'delivered', 20, { offset: 0 }),
        /events_by_client_status/,
      );
      const pending = await check(
        'pending deliveries, deep',
        (s) => s.events.deliveries('cl_plans', 'pending', 20, { offset: 1_000 }),
        new RegExp(`${INDEX_ONLY[database]}events_by_client_status`),
      );
      assert.equal(pending.total, EVENTS / 10);
      const queue = await check('review queue', (s) => s.merchants.withStatus('pending', 20, 0), /merchants_by_status/);
      assert.equal(queue.total, OTHERS + 1);
      const approved = await check(
        'approved applications, deep',
        (s) => s.merchants.withStatus('completed', 20, 2_000),
        /merchants_by_status/,
      );
      assert.equal(approved.total, MERCHANTS);
    });
  });
}
