import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { send, type Answer } from '../test/support/http.ts';
import { validApplication } from '../test/support/fixtures.ts';
import { TEST_CARD } from '../test/support/payments.ts';
import { ledgerHistorySql, type Dialect } from '../test/support/history.ts';
import { serviceOnPostgres, serviceOnSqlite, type BenchService } from './services.ts';
import { BENCH_AUTH, BENCH_CLIENT, basicAuthorization } from './credentials.ts';
import { median } from './median.ts';
import { load } from './load.ts';

/**
 * The ledger's figures (issue 45), on SQLite and (with DATABASE_URL) PostgreSQL:
 * - `GET /balance` and the first page of `GET /payouts` of a merchant with 1M ledger entries (a year of payouts) against
 *   a merchant with one sale, interleaved, median of LEDGER_SAMPLES each: aim ≤ 2×.
 * - A payout sweeping 100,000 entries of one merchant: its time, and meanwhile `/health` and another merchant's
 *   `GET /balance`, one call every 5 ms: aim p99 ≤ 20 ms.
 * - What the ledger adds to a sale's write: `POST /customers/charge/{id}` (a card sale, its event and now its two
 *   entries) on this checkout and on LEDGER_BASELINE (default: the commit before migration 020), interleaved rounds of
 *   BENCH_SECONDS: requests a second, and the median of the rounds' ratios: aim ≥ 0.9×.
 *
 * Alone: `node bench/ledger.ts` (DATABASE_URL for PostgreSQL too; LEDGER_SIZE=100000 for a quicker run).
 */
const SIZE = Number(process.env.LEDGER_SIZE ?? 1_000_000);
const SWEEP = Number(process.env.LEDGER_SWEEP ?? 100_000);
const SAMPLES = Number(process.env.LEDGER_SAMPLES ?? 15);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.LEDGER_ROUNDS ?? 4);
const PAID_ON = '2025-10-01';

interface Merchant {
  id: string;
  key: string;
}
interface GrowthRow {
  database: string;
  request: string;
  bigMs: number;
  smallMs: number;
}
interface SweepRow {
  database: string;
  entries: number;
  sweepMs: number;
  healthP99Ms: number;
  balanceP99Ms: number;
  idleP99Ms: number;
}
interface WriteRow {
  database: string;
  baseline: number;
  ledger: number;
  ratio: number;
  rounds: string;
}

const api = (baseUrl: string, method: string, path: string, json?: unknown): Promise<Answer> =>
  send(baseUrl, method, `/api/v1${path}`, { auth: BENCH_AUTH, ...(json === undefined ? {} : { json }) });

async function ok(answer: Promise<Answer>, what: string): Promise<any> {
  const settled = await answer;
  if (settled.status !== 200)
    throw new Error(`ledger bench: ${what} answered ${settled.status}: ${settled.text.slice(0, 300)}`);
  return settled.body.data;
}

/** An approved merchant with one card sale of 10.00. */
async function merchant(baseUrl: string): Promise<Merchant> {
  const onboarded = await ok(api(baseUrl, 'POST', '/onboarding', validApplication()), 'onboarding');
  await ok(api(baseUrl, 'POST', '/approve-merchant', { merchant_id: onboarded.merchant_id }), 'approval');
  const link = await ok(
    api(baseUrl, 'POST', '/requests', {
      merchant_key: onboarded.merchant_key,
      amount: '10.00',
      order_id: randomUUID(),
    }),
    'a pay link',
  );
  await ok(api(baseUrl, 'POST', '/sandbox/pay', { pay_link: link.pay_link, method: 'card', ...TEST_CARD }), 'a sale');
  return { id: onboarded.merchant_id, key: onboarded.merchant_key };
}

/** Runs SQL on the service's database beside it (as bench/growth.ts does). */
function beside(
  service: BenchService,
  dataDir: string,
): { dialect: Dialect; run: (statement: string) => Promise<void>; close: () => Promise<void> } {
  if (service.database === 'SQLite') {
    const db = new SQLite(join(dataDir, 'paykit.sqlite'));
    db.pragma('busy_timeout = 10000');
    return { dialect: 'sqlite', run: async (statement) => void db.exec(statement), close: async () => void db.close() };
  }
  const client = new pg.Client({ connectionString: service.databaseUrl });
  const connected = client.connect();
  return {
    dialect: 'postgres',
    run: async (statement) => void (await connected, await client.query(statement)),
    close: async () => void (await connected, await client.end()),
  };
}

async function timed(baseUrl: string, path: string): Promise<number> {
  const started = performance.now();
  await ok(api(baseUrl, 'GET', path), path);
  return performance.now() - started;
}

const p99 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.99))]!;

/** One call every 5 ms until `done` resolves; the time each took. */
async function every5ms(call: () => Promise<unknown>, done: Promise<unknown>): Promise<number[]> {
  let finished = false;
  void done.finally(() => (finished = true));
  const ms: number[] = [];
  while (!finished && ms.length < 100_000) {
    const started = performance.now();
    await call();
    ms.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return ms;
}

async function onService(service: BenchService, dataDir: string): Promise<{ growth: GrowthRow[]; sweep: SweepRow }> {
  const { baseUrl } = service.process;
  const database = beside(service, dataDir);
  try {
    const big = await merchant(baseUrl);
    const small = await merchant(baseUrl);
    const started = performance.now();
    for (const statement of ledgerHistorySql(database.dialect, {
      clientId: BENCH_CLIENT.PAYKIT_CLIENT_ID,
      merchantId: big.id,
      count: SIZE,
      availableOn: PAID_ON,
      prefix: 'lb',
      payouts: 250,
    })) {
      await database.run(statement);
    }
    await database.run(database.dialect === 'postgres' ? 'VACUUM ANALYZE' : 'PRAGMA wal_checkpoint(TRUNCATE)');
    console.log(
      `ledger bench: ${service.database}, ${SIZE.toLocaleString('en')} entries in 250 payouts written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const growth: GrowthRow[] = [];
    for (const [request, path] of [
      ['GET /balance', '/balance?merchant_key='],
      ['GET /payouts (first page)', '/payouts?perPage=20&merchant_key='],
    ] as const) {
      const bigMs: number[] = [];
      const smallMs: number[] = [];
      await timed(baseUrl, path + big.key);
      await timed(baseUrl, path + small.key);
      for (let i = 0; i < SAMPLES; i++) {
        bigMs.push(await timed(baseUrl, path + big.key));
        smallMs.push(await timed(baseUrl, path + small.key));
      }
      growth.push({ database: service.database, request, bigMs: median(bigMs), smallMs: median(smallMs) });
    }

    // The sweep: a merchant on manual payouts with SWEEP entries available, paid out by one POST /payouts.
    const sweeping = await merchant(baseUrl);
    await ok(
      send(baseUrl, 'PUT', '/api/v1/payouts/settings', {
        auth: BENCH_AUTH,
        json: { merchant_key: sweeping.key, interval: 'manual' },
      }),
      'manual schedule',
    );
    for (const statement of ledgerHistorySql(database.dialect, {
      clientId: BENCH_CLIENT.PAYKIT_CLIENT_ID,
      merchantId: sweeping.id,
      count: SWEEP,
      availableOn: PAID_ON,
      prefix: 'sw',
    })) {
      await database.run(statement);
    }
    await database.run(database.dialect === 'postgres' ? 'VACUUM ANALYZE' : 'PRAGMA wal_checkpoint(TRUNCATE)');
    const health = () => send(baseUrl, 'GET', '/health');
    const otherBalance = () => api(baseUrl, 'GET', `/balance?merchant_key=${small.key}`);
    const idle = await every5ms(health, new Promise((resolve) => setTimeout(resolve, 2_000)));
    const sweepStarted = performance.now();
    const payout = ok(api(baseUrl, 'POST', '/payouts', { merchant_key: sweeping.key }), 'the sweep').then((made) => {
      // Its own sale is not available yet: the seeded entries alone.
      if (made.entry_count !== SWEEP)
        throw new Error(`ledger bench: the payout swept ${made.entry_count} entries, not ${SWEEP}`);
      return performance.now() - sweepStarted;
    });
    const [sweepMs, healthMs, balanceMs] = await Promise.all([
      payout,
      every5ms(health, payout),
      every5ms(otherBalance, payout),
    ]);
    return {
      growth,
      sweep: {
        database: service.database,
        entries: SWEEP,
        sweepMs,
        healthP99Ms: p99(healthMs),
        balanceP99Ms: p99(balanceMs),
        idleP99Ms: p99(idle),
      },
    };
  } finally {
    await database.close();
  }
}

/** The commit a checkout of the ledger's writes is compared with: LEDGER_BASELINE, or the parent of the commit that added migration 020. */
function baselineCommit(): string {
  if (process.env.LEDGER_BASELINE) return process.env.LEDGER_BASELINE;
  const added = execFileSync(
    'git',
    ['log', '--diff-filter=A', '--format=%H', '--', 'server/store/migrations/020-ledger.ts'],
    { encoding: 'utf8' },
  )
    .trim()
    .split('\n')
    .at(-1);
  if (!added) throw new Error('ledger bench: no commit adds migration 020; set LEDGER_BASELINE');
  return `${added}^`;
}

/** A card sale per request through a stored customer's card, on `baseUrl`: what `load` sends. */
async function chargeLoad(baseUrl: string) {
  const m = await merchant(baseUrl);
  const customer = await ok(
    api(baseUrl, 'POST', '/customers/add', {
      merchant_key: m.key,
      first_name: 'Bench',
      last_name: 'Mark',
      email: 'bench@example.com',
    }),
    'a customer',
  );
  const customerId = customer.customer_id;
  const link = await ok(
    api(baseUrl, 'POST', `/requests/${customerId}`, { merchant_key: m.key, amount: '10.00', order_id: randomUUID() }),
    'a customer request',
  );
  await ok(
    api(baseUrl, 'POST', '/sandbox/pay', { pay_link: link.pay_link, method: 'card', ...TEST_CARD }),
    'the saved card',
  );
  let order = 0;
  return {
    url: `${baseUrl}/api/v1/customers/charge/${customerId}`,
    body: () => JSON.stringify({ merchant_key: m.key, amount: '12.34', order_id: `charge-${++order}` }),
  };
}

/** Sales a second on the baseline and on this checkout, side by side, interleaved rounds; on each database. */
async function writeCost(databaseUrl: string | undefined): Promise<WriteRow[]> {
  // LEDGER_BASELINE_DIR: a checkout of its own to compare with (node_modules linked), instead of a commit.
  const given = process.env.LEDGER_BASELINE_DIR;
  const commit = given ? undefined : baselineCommit();
  const baselineDir = given ?? mkdtempSync(join(tmpdir(), 'paykit-ledger-baseline-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'paykit-ledger-write-'));
  const rows: WriteRow[] = [];
  try {
    if (commit) {
      execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C ${baselineDir}`]);
      symlinkSync(resolve('node_modules'), join(baselineDir, 'node_modules'));
    }
    for (const kind of databaseUrl ? (['SQLite', 'PostgreSQL'] as const) : (['SQLite'] as const)) {
      const start = (dir: string, i: number) =>
        kind === 'SQLite'
          ? serviceOnSqlite(join(dataDir, `${kind}-${i}`), BENCH_CLIENT, dir)
          : serviceOnPostgres(databaseUrl!, BENCH_CLIENT, dir);
      const services = [await start(baselineDir, 0), await start('.', 1)];
      try {
        const loads = [await chargeLoad(services[0]!.process.baseUrl), await chargeLoad(services[1]!.process.baseUrl)];
        const perSecond: [number[], number[]] = [[], []];
        for (let round = 0; round < ROUNDS; round++) {
          for (const i of [0, 1] as const) {
            const result = await load({
              url: loads[i]!.url,
              method: 'POST',
              body: loads[i]!.body,
              duration: SECONDS,
              warmUp: round === 0,
              headers: { authorization: basicAuthorization(BENCH_AUTH), 'content-type': 'application/json' },
            });
            if (result.non2xx || result.errors)
              throw new Error(`ledger bench: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
            perSecond[i].push(result.requestsPerSecond);
          }
        }
        const ratios = perSecond[1].map((rps, i) => rps / perSecond[0][i]!);
        rows.push({
          database: kind,
          baseline: median(perSecond[0]),
          ledger: median(perSecond[1]),
          ratio: median(ratios),
          rounds: ratios.map((r) => r.toFixed(2)).join(' '),
        });
      } finally {
        for (const service of services) await service.stop();
      }
    }
  } finally {
    if (commit) rmSync(baselineDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(
    `ledger bench: the baseline is ${commit ? `${commit} (${execFileSync('git', ['rev-parse', '--short', commit], { encoding: 'utf8' }).trim()})` : baselineDir}`,
  );
  return rows;
}

/** Parts to leave out while iterating on one: LEDGER_SKIP=reads,writes. */
const SKIP = new Set((process.env.LEDGER_SKIP ?? '').split(','));

export async function measureLedger(databaseUrl: string | undefined): Promise<void> {
  const growth: GrowthRow[] = [];
  const sweeps: SweepRow[] = [];
  if (!SKIP.has('reads')) {
    const dataDir = mkdtempSync(join(tmpdir(), 'paykit-ledger-'));
    try {
      for (const start of [
        () => serviceOnSqlite(dataDir, BENCH_CLIENT),
        ...(databaseUrl ? [() => serviceOnPostgres(databaseUrl, BENCH_CLIENT)] : []),
      ]) {
        const service = await start();
        try {
          const measured = await onService(service, dataDir);
          growth.push(...measured.growth);
          sweeps.push(measured.sweep);
        } finally {
          await service.stop();
        }
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const writes = SKIP.has('writes') ? [] : await writeCost(databaseUrl);
  const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));
  console.log(
    `\nLedger: a merchant with ${SIZE.toLocaleString('en')} entries (250 payouts) against a one-sale merchant, interleaved, median of ${SAMPLES}, ms; aim ≤ 2×:`,
  );
  console.table(
    growth.map((row) => ({
      database: row.database,
      request: row.request,
      'large merchant ms': ms(row.bigMs),
      'one-sale merchant ms': ms(row.smallMs),
      '× one-sale': (row.bigMs / row.smallMs).toFixed(2),
    })),
  );
  console.log(
    `\nA payout sweeping ${SWEEP.toLocaleString('en')} entries of one merchant (POST /payouts); meanwhile /health and another merchant's GET /balance, one call every 5 ms; aim p99 ≤ 20 ms:`,
  );
  console.table(
    sweeps.map((row) => ({
      database: row.database,
      'sweep ms': Math.round(row.sweepMs),
      '/health p99 ms': ms(row.healthP99Ms),
      'other balance p99 ms': ms(row.balanceP99Ms),
      '/health alone p99 ms': ms(row.idleP99Ms),
    })),
  );
  console.log(
    `\nA sale's write with its ledger entries (POST /customers/charge/{id}) against the same without a ledger, ${ROUNDS} interleaved rounds of ${SECONDS} s, 50 connections; aim ≥ 0.9×:`,
  );
  console.table(
    writes.map((row) => ({
      database: row.database,
      'without ledger req/s': Math.round(row.baseline),
      'with ledger req/s': Math.round(row.ledger),
      '× without (median of rounds)': row.ratio.toFixed(2),
      rounds: row.rounds,
    })),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await measureLedger(process.env.DATABASE_URL);
