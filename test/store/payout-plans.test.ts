import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { CompiledQuery } from 'kysely';
import { openStore } from '../../server/store/open.ts';
import type { Store } from '../../server/store/store.ts';
import { TEST_DATABASE_URL, testDatabases } from '../support/databases.ts';
import { ledgerHistorySql } from '../support/history.ts';

/**
 * A payout's steps on PostgreSQL find their entries by the unswept index, never by reading the table: matched by `seq`
 * alone (no index of its own), every step of 1,000 scanned every merchant's entries, so a sweep cost the platform's
 * size times its steps. VACUUM ANALYZE'd over 60,000 entries: a merchant's 5,000 among another's 55,000.
 */
const SWEPT = 5_000;

interface PgNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PgNode[];
}
const flatten = (node: PgNode): PgNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];

if (testDatabases().includes('postgres')) {
  const ran: CompiledQuery[] = [];
  let store: Store;
  let client: pg.Client;
  before(async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    store = await openStore({
      dataDir: 'memory',
      databaseUrl: TEST_DATABASE_URL,
      pgSchema: schema,
      log: (event: { query: CompiledQuery }) => void ran.push(event.query),
    });
    client = new pg.Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${schema}` });
    await client.connect();
    for (const [merchantId, count] of [
      ['m_paid', SWEPT],
      ['m_other', 55_000],
    ] as const)
      for (const statement of ledgerHistorySql('postgres', {
        clientId: 'cl_1',
        merchantId,
        count,
        availableOn: '2026-10-01',
        prefix: merchantId,
      }))
        await client.query(statement);
    await client.query('VACUUM ANALYZE');
  });
  after(async () => {
    await client.end();
    await store.close();
  });

  test("a payout's steps read the unswept index, not the ledger's table", async () => {
    const at = '2026-11-01T00:00:00.000Z';
    const payout = {
      id: 'po_plans',
      client_id: 'cl_1',
      merchant_id: 'm_paid',
      period: null,
      amount: 0,
      entry_count: 0,
      status: 'pending' as const,
      bank_last_four: '6789',
      arrival_date: '2026-11-03',
      created_at: at,
      updated_at: at,
      failure_code: null,
      failure_message: null,
    };
    ran.length = 0;
    const swept = await store.transaction((tx) => tx.payouts.sweep(payout, '2026-11-01'));
    assert.deepEqual(swept, { amount: SWEPT * 100, count: SWEPT });
    const steps = ran.filter((query) => /^update "ledger_entries"/.test(query.sql));
    assert.ok(steps.length >= SWEPT / 1_000, `${steps.length} steps`);
    for (const step of steps) {
      const result = await client.query(`EXPLAIN (FORMAT JSON) ${step.sql}`, step.parameters as unknown[]);

      const plan = (result.rows[0] as { 'QUERY PLAN': { Plan: PgNode }[] })['QUERY PLAN'][0]!.Plan;
      const scans = flatten(plan).filter((node) => node['Node Type'] === 'Seq Scan');
      assert.deepEqual(
        scans.map((node) => node['Relation Name']),
        [],
        step.sql,
      );
    }
  });
}
