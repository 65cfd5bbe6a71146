import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { processPartner, startServiceProcess, type ServiceProcess } from '../support/process.ts';
import { send } from '../support/http.ts';
import { testDatabases } from '../support/databases.ts';
import { storageEnv } from '../support/storage-env.ts';
import { approvedMerchant } from '../support/payments.ts';
import { ledgerHistorySql } from '../support/history.ts';
import { waitUntil } from '../support/wait.ts';

/**
 * Payouts against the process dying and against each other: a payout run killed (SIGKILL) while it sweeps leaves its
 * payout with all its entries or neither, and the next run pays out everything; three processes on one PostgreSQL
 * running payouts at once make exactly one payout per merchant and period, every entry in one of them.
 */
const { env: credentials, auth } = processPartner('payouts');
const ENTRIES = 20_000;

/** SQL beside the service: the SQLite file, or its PostgreSQL schema. */
function beside(database: 'sqlite' | 'postgres', env: Record<string, string>) {
  if (database === 'sqlite') {
    const db = new SQLite(join(env.PAYKIT_DATA_DIR!, 'paykit.sqlite'));
    db.pragma('busy_timeout = 10000');
    return {
      all: async (query: string) => db.prepare(query).all() as Record<string, unknown>[],
      exec: async (query: string) => void db.exec(query),
      close: async () => void db.close(),
    };
  }
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  const connected = client.connect();
  return {
    all: async (query: string) => (await connected, (await client.query(query)).rows as Record<string, unknown>[]),
    exec: async (query: string) => void (await connected, await client.query(query)),
    close: async () => void (await connected, await client.end()),
  };
}

/** Each payout of the merchant with what its entries add up to; and the entries no payout holds. */
async function ledgerOf(db: ReturnType<typeof beside>, merchantId: string) {
  const payouts =
    await db.all(`SELECT p.id, p.amount, p.entry_count, p.status, (SELECT count(*) FROM ledger_entries e WHERE e.payout_id = p.id) AS n,
    (SELECT coalesce(sum(e.amount), 0) FROM ledger_entries e WHERE e.payout_id = p.id) AS swept FROM payouts p WHERE p.merchant_id = '${merchantId}'`);
  const [unswept] = await db.all(
    `SELECT count(*) AS n FROM ledger_entries WHERE merchant_id = '${merchantId}' AND payout_id IS NULL`,
  );
  const [balance] = await db.all(
    `SELECT coalesce(sum(amount), 0) AS amount FROM ledger_balances WHERE merchant_id = '${merchantId}'`,
  );
  const [free] = await db.all(
    `SELECT coalesce(sum(amount), 0) AS amount FROM ledger_entries WHERE merchant_id = '${merchantId}' AND payout_id IS NULL`,
  );
  return {
    payouts: payouts.map((p) => ({
      ...p,
      amount: Number(p.amount),
      entry_count: Number(p.entry_count),
      n: Number(p.n),
      swept: Number(p.swept),
    })),
    unswept: Number(unswept!.n),
    balanced: Number(balance!.amount) === Number(free!.amount),
  };
}

/** PostgreSQL: a payout's sweep, running on this database. */
const SWEEPING = `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND query LIKE 'update "ledger_entries" set "payout_id"%'`;
const today = () => new Date().toISOString().slice(0, 10);
const api = (service: ServiceProcess, method: string, path: string, json?: unknown) =>
  send(service.baseUrl, method, `/api/v1${path}`, { auth, json });

for (const database of testDatabases()) {
  describe(`a payout run killed mid-sweep (${database})`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    test('leaves the payout with all its entries or neither; after a restart the next run pays out every entry', async () => {
      const { env, cleanup } = await storageEnv(database);
      cleanups.push(cleanup);
      const first = await startServiceProcess({ ...env, ...credentials });
      cleanups.push(async () => void (await first.stop('SIGKILL')));
      const merchant = await approvedMerchant(first, auth);
      await api(first, 'PUT', '/payouts/settings', { merchant_key: merchant.merchantKey, interval: 'manual' });
      const db = beside(database, env);
      cleanups.push(db.close);
      for (const statement of ledgerHistorySql(database, {
        clientId: credentials.PAYKIT_CLIENT_ID,
        merchantId: merchant.merchantId,
        count: ENTRIES,
        availableOn: '2025-10-01',
        prefix: 'crash',
      })) {
        await db.exec(statement);
      }
      if (database === 'sqlite') await db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      const walSize = () => {
        try {
          return statSync(join(env.PAYKIT_DATA_DIR!, 'paykit.sqlite-wal')).size;
        } catch {
          return 0;
        }
      };
      const atRest = walSize();

      const answered = api(first, 'POST', '/payouts', { merchant_key: merchant.merchantKey }).then(
        (a) => a.status,
        () => 'killed',
      );
      // Killed while the sweep writes: PostgreSQL shows the sweep's UPDATE running; SQLite's WAL grows with its pages.
      await waitUntil(
        async () => (database === 'postgres' ? (await db.all(SWEEPING)).length > 0 : walSize() > atRest),
        { what: 'the sweep under way', timeoutMs: 30_000, everyMs: 1 },
      );
      assert.equal(await first.stop('SIGKILL'), null, 'killed, not closed');
      assert.equal(await answered, 'killed', 'the payout was never answered');

      // PostgreSQL ends the dead connection's transaction; the embedded database rolls its WAL back at the next open.
      const second = await startServiceProcess({ ...env, ...credentials });
      cleanups.push(async () => void (await second.stop()));
      if (database === 'postgres')
        await waitUntil(async () => (await db.all(SWEEPING)).length === 0, {
          what: 'the killed sweep ended',
          timeoutMs: 30_000,
        });
      const afterCrash = await ledgerOf(db, merchant.merchantId);
      for (const payout of afterCrash.payouts)
        assert.deepEqual(
          [payout.n, payout.swept],
          [payout.entry_count, payout.amount],
          'a payout that stands holds all its entries',
        );
      assert.equal(
        afterCrash.payouts.reduce((n, p) => n + p.n, 0) + afterCrash.unswept,
        ENTRIES,
        'no entry lost, none in two payouts',
      );
      assert.ok(afterCrash.balanced, 'the balance is the sum of the unswept entries');

      const made = await api(second, 'POST', '/payouts', { merchant_key: merchant.merchantKey });
      if (afterCrash.payouts.length === 0) {
        assert.equal(made.status, 200, made.text);
        assert.deepEqual([made.body.data.amount, made.body.data.entry_count], [`${ENTRIES}.00`, ENTRIES]);
      }
      const final = await ledgerOf(db, merchant.merchantId);
      assert.equal(final.payouts.length, 1);
      assert.deepEqual([final.payouts[0]!.n, final.payouts[0]!.swept], [ENTRIES, ENTRIES * 100]);
      assert.equal(final.unswept, 0);
      assert.ok(final.balanced);
    });
  });
}

if (testDatabases().includes('postgres')) {
  describe('three processes on one PostgreSQL running payouts at once', () => {
    const cleanups: (() => Promise<void>)[] = [];
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    test('exactly one payout per merchant and period, every entry in one of them', async () => {
      const { env, cleanup } = await storageEnv('postgres');
      cleanups.push(cleanup);
      // Started at once, as a platform's processes would be; each is stopped even when another fails to start.
      const processes = await Promise.all(
        [1, 2, 3].map(async () => {
          const service = await startServiceProcess({ ...env, ...credentials, PAYKIT_WEBHOOK_DISPATCHER: 'off' });
          cleanups.push(async () => void (await service.stop()));
          return service;
        }),
      );
      const db = beside('postgres', env);
      cleanups.push(db.close);
      // Paid out today whatever the weekday: a weekly schedule anchored on it.
      const anchor = new Date().toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' }).toLowerCase();
      const merchants = [];
      for (let i = 0; i < 4; i++) {
        const merchant = await approvedMerchant(processes[i % 3]!, auth);
        await api(processes[0]!, 'PUT', '/payouts/settings', {
          merchant_key: merchant.merchantKey,
          interval: 'weekly',
          weekly_anchor: anchor,
        });
        for (const statement of ledgerHistorySql('postgres', {
          clientId: credentials.PAYKIT_CLIENT_ID,
          merchantId: merchant.merchantId,
          count: 2_000 * (i + 1),
          availableOn: today(),
          prefix: `three${i}`,
        })) {
          await db.exec(statement);
        }
        merchants.push(merchant);
      }
      const runs = await Promise.all(
        processes.flatMap((service) => [1, 2, 3].map(() => api(service, 'POST', '/sandbox/payouts/run', {}))),
      );
      for (const run of runs) assert.equal(run.status, 200, run.text);
      assert.equal(
        runs.reduce((n, run) => n + (run.body.data.created as number), 0),
        merchants.length,
        'one payout made per merchant, by whichever process got there first',
      );
      for (const [i, merchant] of merchants.entries()) {
        const ledger = await ledgerOf(db, merchant.merchantId);
        assert.equal(ledger.payouts.length, 1, `merchant ${i}: one payout for ${today()}`);
        assert.deepEqual(
          [ledger.payouts[0]!.n, ledger.payouts[0]!.swept, ledger.payouts[0]!.amount],
          [2_000 * (i + 1), 2_000 * (i + 1) * 100, 2_000 * (i + 1) * 100],
        );
        assert.equal(ledger.unswept, 0);
        assert.ok(ledger.balanced);
      }
    });
  });
}
