import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import type { CompiledQuery } from 'kysely';
import { openStore } from '../../server/store/open.ts';
import type { Store } from '../../server/store/store.ts';
import { DISPUTE_REASONS, DISPUTE_STATUSES } from '../../server/domain/disputes.ts';
import { TEST_DATABASE_URL, testDatabases } from '../support/databases.ts';

/**
 * GET /disputes reads through an index that matches its filter and its order (migration 023), as every listing does
 * (test/store/listing-plans.test.ts): for each filter, first page and by cursor, SQLite scans no table whole and sorts
 * nothing; the sandbox's open disputes by their own partial index. On PostgreSQL, VACUUM ANALYZE'd over 50,000
 * disputes (a large merchant among fifty), the same: no sequential scan, no sort of rows no LIMIT bounds.
 */
const MERCHANTS = 20;
const EACH = 300;

let dir: string;
let store: Store;
let explainer: SQLite.Database;
const ran: CompiledQuery[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paykit-dispute-plans-'));
  store = await openStore({ dataDir: dir, log: (event: { query: CompiledQuery }) => void ran.push(event.query) });
  const seeder = new SQLite(join(dir, 'paykit.sqlite'));
  const insert = seeder.prepare(
    `INSERT INTO "disputes" ("id", "client_id", "merchant_id", "transaction_id", "amount", "reason", "status",
      "funds_withdrawn", "evidence_due_by", "evidence", "file_count", "history", "created_at", "updated_at")
     VALUES (?, 'cl_1', ?, ?, 1000, ?, ?, 1, ?, '{}', 0, '[]', ?, ?)`,
  );
  seeder.transaction(() => {
    for (let m = 0; m < MERCHANTS; m++)
      for (let i = 0; i < EACH; i++) {
        const at = new Date(Date.UTC(2026, 0, 1) + (m * EACH + i) * 60_000).toISOString();
        insert.run(
          `dp_${m}_${i}`,
          `m_${m}`,
          `txn_${m}_${i}`,
          DISPUTE_REASONS[i % DISPUTE_REASONS.length],
          DISPUTE_STATUSES[i % DISPUTE_STATUSES.length],
          at,
          at,
          at,
        );
      }
  })();
  seeder.exec('ANALYZE');
  seeder.close();
  explainer = new SQLite(join(dir, 'paykit.sqlite'), { readonly: true });
});
after(async () => {
  explainer.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const problemsOf = (query: CompiledQuery) =>
  (
    explainer.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...(query.parameters as unknown[])) as {
      detail: string;
    }[]
  )
    .map((row) => row.detail)
    // The open disputes are the partial index whole: reading all of it is the query.
    .filter((detail) => /^SCAN disputes(?! USING INDEX disputes_open$)/.test(detail) || /TEMP B-TREE/.test(detail));

test('every filter of GET /disputes, first page and by cursor, reads an index range in order', async () => {
  const filters = [
    {},
    { status: 'lost' as const },
    { reason: 'fraudulent' as const },
    { status: 'won' as const, reason: 'general' as const },
  ];
  for (const filter of filters) {
    ran.length = 0;
    const first = await store.disputes.page('m_7', filter, 20, { offset: 0 });
    assert.ok(first.items.length > 0, JSON.stringify(filter));
    if (first.last) await store.disputes.page('m_7', filter, 20, { after: first.last });
    const listings = ran.filter((q) => /from "disputes"/.test(q.sql) && /order by/.test(q.sql));
    assert.ok(listings.length > 0);
    for (const query of listings) assert.deepEqual(problemsOf(query), [], `${JSON.stringify(filter)}: ${query.sql}`);
  }
  ran.length = 0;
  await store.disputes.open();
  for (const query of ran.filter((q) => /from "disputes"/.test(q.sql)))
    assert.deepEqual(problemsOf(query), [], query.sql);
});

interface PgNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PgNode[];
}
const flatten = (node: PgNode): PgNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];

if (testDatabases().includes('postgres'))
  describe('dispute plans (postgres)', () => {
    const pgRan: CompiledQuery[] = [];
    let pgStore: Store;
    let client: pg.Client;
    before(async () => {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      pgStore = await openStore({
        dataDir: 'memory',
        databaseUrl: TEST_DATABASE_URL,
        pgSchema: schema,
        log: (event: { query: CompiledQuery }) => void pgRan.push(event.query),
      });
      client = new pg.Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${schema}` });
      await client.connect();
      const list = (values: readonly string[]) => `ARRAY[${values.map((v) => `'${v}'`).join(', ')}]`;
      // m_big has 20,000 disputes, 49 others 612 each; one in fifty is still open (as the sandbox leaves them).
      await client.query(`
        INSERT INTO "disputes" ("id", "client_id", "merchant_id", "transaction_id", "amount", "reason", "status",
          "funds_withdrawn", "evidence_due_by", "evidence", "file_count", "history", "created_at", "updated_at")
        SELECT 'dp_' || n, 'cl_1', CASE WHEN n < 20000 THEN 'm_big' ELSE 'm_' || (n % 49) END, 'txn_' || n, 1000,
          (${list(DISPUTE_REASONS)})[1 + n % ${DISPUTE_REASONS.length}],
          CASE WHEN n % 50 = 0 THEN (${list(DISPUTE_STATUSES.slice(0, 3))})[1 + (n / 50) % 3]
            ELSE (${list(DISPUTE_STATUSES.slice(3))})[1 + n % 2] END,
          1, at, '{}', 0, '[]', at, at
        FROM (SELECT n, to_char(timestamp '2026-01-01' + n * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
              FROM generate_series(0, 49999) AS n) AS seeded`);
      await client.query('VACUUM ANALYZE');
    });
    after(async () => {
      await client.end();
      await pgStore.close();
    });

    const problemsOf = async (query: CompiledQuery) => {
      const result = await client.query(`EXPLAIN (FORMAT JSON) ${query.sql}`, query.parameters as unknown[]);
      const root = (result.rows[0] as { 'QUERY PLAN': { Plan: PgNode }[] })['QUERY PLAN'][0]!.Plan;
      const unbounded = (n: PgNode): boolean =>
        n['Node Type'] !== 'Limit' && (Boolean(n['Relation Name']) || (n.Plans ?? []).some(unbounded));
      return flatten(root)
        .filter(
          (n) => n['Node Type'] === 'Seq Scan' || (/Sort/.test(n['Node Type']) && (n.Plans ?? []).some(unbounded)),
        )
        .map((n) => `${n['Node Type']} ${n['Index Name'] ?? n['Relation Name'] ?? ''}`);
    };

    test('every filter of GET /disputes, first page and by cursor, for the large merchant and a small one', async () => {
      const filters = [
        {},
        { status: 'lost' as const },
        { status: 'needs_response' as const },
        { reason: 'fraudulent' as const },
        { status: 'won' as const, reason: 'general' as const },
      ];
      for (const merchant of ['m_big', 'm_7'])
        for (const filter of filters) {
          pgRan.length = 0;
          const first = await pgStore.disputes.page(merchant, filter, 20, { offset: 0 });
          if (merchant === 'm_big') assert.ok(first.items.length > 0, JSON.stringify(filter));
          if (first.last) await pgStore.disputes.page(merchant, filter, 20, { after: first.last });
          const listings = pgRan.filter((q) => /from "disputes"/.test(q.sql) && /order by/.test(q.sql));
          assert.ok(listings.length >= (first.last ? 2 : 1), 'a first page, and one by cursor when there is more');
          for (const query of listings)
            assert.deepEqual(await problemsOf(query), [], `${merchant} ${JSON.stringify(filter)}: ${query.sql}`);
        }
    });

    test("the sandbox's open disputes: their partial index, not the table", async () => {
      pgRan.length = 0;
      const open = await pgStore.disputes.open();
      assert.equal(open.length, 1000);
      for (const query of pgRan.filter((q) => /from "disputes"/.test(q.sql)))
        assert.deepEqual(await problemsOf(query), [], query.sql);
    });
  });
