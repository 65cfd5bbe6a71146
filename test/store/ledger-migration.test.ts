import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import { TEST_DATABASE_URL, testDatabases } from '../support/databases.ts';
import { migrationProvider } from '../../server/store/migrations/index.ts';
import { openSqlite } from '../../server/store/sqlite/open-sqlite.ts';
import { openStore } from '../../server/store/open.ts';
import type { Store } from '../../server/store/store.ts';
import { runPayouts } from '../../server/services/payouts.ts';

/**
 * Migration 020 on a database written before it: every sale, refund, void and return gets its entries, from the same
 * rules as new ones, so the upgraded database reconciles, and its first payout run pays out what is available.
 */
const MONDAY = '2026-03-02T10:00:00.000Z';
const TUESDAY = '2026-03-03T10:00:00.000Z';

type Row = Record<string, unknown>;
const transaction = (id: string, fields: Row): Row => ({
  id,
  client_id: 'c_1',
  merchant_id: 'm_1',
  customer_id: null,
  request_id: null,
  parent_id: null,
  kind: 'sale',
  method: 'card',
  status: 'completed',
  source: 'pay_link',
  order_id: `o-${id}`,
  amount: 0,
  fee_amount: 0,
  net_amount: 0,
  refunded_amount: 0,
  card_brand: 'Visa',
  last_four: '4242',
  auth_code: 'A1',
  gateway_ref: `gw_${id}`,
  created_at: MONDAY,
  completed_at: MONDAY,
  settled_at: null,
  ...fields,
});
const sale = (id: string, amount: number, fee: number, fields: Row = {}) =>
  transaction(id, { amount, fee_amount: fee, net_amount: amount - fee, ...fields });
const reversal = (id: string, kind: string, parent: string, amount: number, net: number, at = TUESDAY) =>
  transaction(id, { kind, parent_id: parent, amount, net_amount: net, created_at: at, completed_at: at });

/** What the merchant's history nets to: each pair that cancels out, and what stays (pending ACH 39.68 among it). */
const HISTORY = [
  sale('txn_card', 10_000, 320, { refunded_amount: 2_500 }),
  reversal('txn_refund', 'refund', 'txn_card', 2_500, -2_500),
  sale('txn_voided', 5_000, 175, { status: 'voided' }),
  reversal('txn_void', 'void', 'txn_voided', 5_000, -4_825),
  sale('txn_ach_ok', 20_000, 160, { method: 'ach', completed_at: TUESDAY }),
  sale('txn_ach_no', 3_000, 24, { method: 'ach', status: 'declined', completed_at: null }),
  reversal('txn_return', 'ach_return', 'txn_ach_no', 3_000, -2_976),
  sale('txn_ach_wait', 4_000, 32, { method: 'ach', status: 'pending', completed_at: null }),
  transaction('txn_hold', { kind: 'preauth', status: 'captured', amount: 6_000 }),
  sale('txn_capture', 6_000, 204, { parent_id: 'txn_hold' }),
  // Enough small sales to take the migration over more than one batch.
  ...Array.from({ length: 1_200 }, (_, i) => sale(`txn_small_${String(i).padStart(4, '0')}`, 100, 33)),
];
const NET = HISTORY.filter((t) => t.kind !== 'preauth').reduce((sum, t) => sum + (t.net_amount as number), 0);
const PENDING_ACH = 3_968;

async function openAt016(database: 'sqlite' | 'postgres') {
  if (database === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'paykit-020-'));
    const db = new Kysely<any>({ dialect: (await openSqlite(dir)).dialect });
    return {
      db,
      migrator: new Migrator({ db, provider: migrationProvider('sqlite') }),
      storeOptions: { dataDir: dir },
      close: () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const db = new Kysely<any>({
    dialect: new PostgresDialect({
      pool: new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2, options: `-c search_path=${schema}` }),
    }),
  });
  await sql.raw(`CREATE SCHEMA ${schema}`).execute(db);
  return {
    db,
    migrator: new Migrator({ db, provider: migrationProvider('postgres'), migrationTableSchema: schema }),
    storeOptions: { dataDir: 'memory', databaseUrl: TEST_DATABASE_URL, pgSchema: schema },
    close: () => {},
  };
}

for (const database of testDatabases()) {
  describe(`migration 020 writes the ledger of an existing database (${database})`, () => {
    let store: Store;
    let close: () => void;
    before(async () => {
      const opened = await openAt016(database);
      close = opened.close;
      const { error } = await opened.migrator.migrateTo('016-onboarding-drafts');
      if (error) throw error;
      await opened.db
        .insertInto('clients')
        .values({ id: 'c_1', name: 'Partner', secret_hash: '0'.repeat(64), public_key: 'pk_c_1', created_at: MONDAY })
        .execute();
      await opened.db
        .insertInto('merchants')
        .values({
          id: 'm_1',
          client_id: 'c_1',
          company_id: null,
          status: 'completed',
          business_name: 'Shop',
          email: 'shop@example.com',
          first_name: 'A',
          last_name: 'B',
          phone: '+14155550100',
          website: '',
          merchant_key_hash: 'f'.repeat(64),
          public_key: 'pk_1',
          application: JSON.stringify({ BankingInfo: { account_last4: '6789', routing_number: '110000000' } }),
          created_at: MONDAY,
          submitted_at: MONDAY,
          approved_at: MONDAY,
        })
        .execute();
      for (let i = 0; i < HISTORY.length; i += 200)
        await opened.db
          .insertInto('transactions')
          .values(HISTORY.slice(i, i + 200))
          .execute();
      await opened.db.destroy();
      // The service's next start applies 020.
      store = await openStore(opened.storeOptions);
    });
    after(async () => {
      await store.close();
      close();
    });

    test('every transaction gets the entries its net is made of; the balance is their sum', async () => {
      const totals = await store.ledger.totalsByPayout('m_1');
      assert.deepEqual([...totals.keys()], [null]);
      assert.equal(totals.get(null)!.amount, NET);
      const entries = await store.ledger.ofTransactions(
        'm_1',
        HISTORY.map((t) => t.id as string),
      );
      for (const t of HISTORY.filter(
        (row) => row.kind !== 'preauth' && row.status !== 'declined' && row.kind !== 'ach_return',
      )) {
        assert.equal(
          entries.filter((e) => e.transaction_id === t.id).reduce((sum, e) => sum + e.amount, 0),
          t.net_amount,
          `the entries of ${t.id}`,
        );
      }
      assert.deepEqual(
        entries.filter((e) => e.transaction_id === 'txn_ach_wait').map((e) => e.available_on),
        [null, null],
        'pending ACH waits for its bank',
      );
      assert.deepEqual(
        entries
          .filter((e) => e.transaction_id === 'txn_ach_no' || e.transaction_id === 'txn_return')
          .map((e) => e.available_on),
        ['2026-03-03', '2026-03-03', '2026-03-03', '2026-03-03'],
        'a declined payment and its return on the day of the return',
      );
      assert.deepEqual(await store.ledger.balance('m_1', '2026-03-20'), {
        available: NET - PENDING_ACH,
        pending: PENDING_ACH,
      });
      assert.deepEqual(
        await store.ledger.balance('m_1', '2026-03-05'),
        { available: 19_840, pending: NET - 19_840 },
        'before the cards are available: the approved ACH only',
      );
    });

    test('the first payout run pays out what is available, to the cent', async () => {
      const run = await runPayouts(store, new Date('2026-03-20T09:00:00.000Z'));
      assert.equal(run.created, 1);
      const [payout] = (await store.payouts.page('m_1', 10, { offset: 0 })).items;
      assert.equal(payout!.amount, NET - PENDING_ACH);
      assert.equal(payout!.bank_last_four, '6789');
      const totals = await store.ledger.totalsByPayout('m_1');
      assert.deepEqual(totals.get(payout!.id), { amount: payout!.amount, count: payout!.entry_count });
      assert.deepEqual(await store.ledger.balance('m_1', '2026-03-20'), { available: 0, pending: PENDING_ACH });
    });
  });
}
