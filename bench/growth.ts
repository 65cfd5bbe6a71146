import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { send, type Answer } from '../test/support/http.ts';
import { validApplication } from '../test/support/fixtures.ts';
import { TEST_CARD } from '../test/support/payments.ts';
import { paymentRequestHistorySql, transactionHistorySql, type Dialect } from '../test/support/history.ts';
import { serviceOnPostgres, serviceOnSqlite, type BenchService } from './services.ts';
import { BENCH_AUTH, BENCH_CLIENT } from './credentials.ts';
import { median } from './median.ts';
import {
  consoleFigures,
  consoleQuestions,
  exportFigures,
  healthBesideConsole,
  healthWhile,
  p99,
  type ConsoleMerchant,
  type ConsoleRow,
  type ExportFigures,
} from './console-growth.ts';

/**
 * The growth table (issue 31): what a listing costs a merchant with 10k, 100k and 1M transactions against a merchant
 * with one sale, in the same run and interleaved (big, small, big, small…), so the machine's drift moves both. The
 * history is written set-based (test/support/history.ts), a year of it, through the counters' triggers like any
 * write; then PostgreSQL is VACUUM ANALYZE'd and SQLite's WAL checkpointed, as a database at rest. Then `/health` while three
 * listings of the largest merchant run at once: what one merchant's back office costs every other merchant. At the
 * largest size, the payments console's questions, `/health` beside three loops of the slowest, and the CSV export of
 * the whole history (console-growth.ts).
 *
 * Alone: `node bench/growth.ts` (DATABASE_URL for PostgreSQL too; GROWTH_SIZES=10000,100000).
 */
const SIZES = (process.env.GROWTH_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const SAMPLES = Number(process.env.GROWTH_SAMPLES ?? 15);
const HEALTH_SECONDS = Number(process.env.GROWTH_HEALTH_SECONDS ?? 5);
const PER_PAGE = 20;
const HISTORY_END = '2026-10-31';
const ONE_DAY = '2026-10-01';

interface Merchant extends ConsoleMerchant {
  id: string;
  key: string;
}
interface Row {
  database: string;
  merchant: number;
  request: string;
  bigMs: number;
  smallMs: number;
}
interface Health {
  database: string;
  besides: string;
  idleP99Ms: number;
  loadedP99Ms: number;
  loadedMaxMs: number;
  listings: number;
}

const api = (service: BenchService, method: string, path: string, json?: unknown): Promise<Answer> =>
  send(service.process.baseUrl, method, `/api/v1${path}`, {
    auth: BENCH_AUTH,
    ...(json === undefined ? {} : { json }),
  });

/** An approved merchant with one sale, paid by card through a pay link sent to an e-mail, and a console session that may export. */
async function merchant(service: BenchService): Promise<Merchant> {
  const onboarded = (await api(service, 'POST', '/onboarding', validApplication())).body.data;
  await api(service, 'POST', '/approve-merchant', { merchant_id: onboarded.merchant_id });
  const orderId = randomUUID();
  const link = await api(service, 'POST', '/requests', {
    merchant_key: onboarded.merchant_key,
    amount: '10.00',
    order_id: orderId,
    email: 'Shopper11@Example.com',
  });
  const paid = await api(service, 'POST', '/sandbox/pay', {
    pay_link: link.body.data.pay_link,
    method: 'card',
    ...TEST_CARD,
  });
  if (paid.status !== 200) throw new Error(`growth bench: a sale failed: ${paid.text}`);
  return {
    id: onboarded.merchant_id,
    key: onboarded.merchant_key,
    tokens: await sessions(service, onboarded.merchant_key),
    saleId: paid.body.data.transaction_id as string,
    orderId,
  };
}

/** Twenty console sessions that may export (made afresh after each history is written: that can outlast a session). */
async function sessions(service: BenchService, merchantKey: string): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < 20; i++) {
    tokens.push(
      (await api(service, 'POST', '/widgets/sessions', { merchant_key: merchantKey, features: { export: true } })).body
        .data.session_token as string,
    );
  }
  return tokens;
}

/** Runs SQL on the service's database beside it: the SQLite file, or the service's PostgreSQL schema. */
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
    run: async (statement) => {
      await connected;
      await client.query(statement);
    },
    close: async () => {
      await connected;
      await client.end();
    },
  };
}

/** The listings the table compares, each for a merchant: a path, and the bearer token if it is the widgets'. */
function requests(m: Merchant, total: number, cursor: string) {
  const base = `/merchant/transactions?merchant_key=${m.key}&limit=${PER_PAGE}`;
  return {
    'first page': { path: base },
    'one day': { path: `${base}&from_date=${ONE_DAY}&to_date=${ONE_DAY}` },
    'last page by pageNumber': { path: `${base}&pageNumber=${Math.max(1, Math.ceil(total / PER_PAGE))}` },
    'next page by cursor': { path: `${base}&cursor=${cursor}` },
    "the table's listing (widget)": { path: `/widgets/transactions?perPage=${PER_PAGE}`, token: m.tokens[0] },
  };
}

async function timed(service: BenchService, request: { path: string; token?: string }): Promise<number> {
  const started = performance.now();
  const answer = request.token
    ? await send(service.process.baseUrl, 'GET', `/api/v1${request.path}`, {
        headers: { authorization: `Bearer ${request.token}` },
      })
    : await api(service, 'GET', request.path);
  const ms = performance.now() - started;
  if (answer.status !== 200)
    throw new Error(`growth bench: ${request.path} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  return ms;
}

async function listingFigures(service: BenchService, size: number, big: Merchant, small: Merchant): Promise<Row[]> {
  const first = (await api(service, 'GET', `/merchant/transactions?merchant_key=${big.key}&limit=${PER_PAGE}`)).body;
  const smallTotal = (await api(service, 'GET', `/merchant/transactions?merchant_key=${small.key}&limit=${PER_PAGE}`))
    .body.total as number;
  // The one-sale merchant has no second page: its "next page" starts after a place above every row, and holds its sale.
  const above = Buffer.from(JSON.stringify(['9999-12-31T00:00:00.000Z', 0])).toString('base64url');
  const ofBig = requests(big, first.total, first.next_cursor);
  const ofSmall = requests(small, smallTotal, above);
  const rows: Row[] = [];
  for (const name of Object.keys(ofBig) as (keyof typeof ofBig)[]) {
    const bigMs: number[] = [];
    const smallMs: number[] = [];
    await timed(service, ofBig[name]);
    await timed(service, ofSmall[name]);
    for (let i = 0; i < SAMPLES; i++) {
      bigMs.push(await timed(service, ofBig[name]));
      smallMs.push(await timed(service, ofSmall[name]));
    }
    rows.push({
      database: service.database,
      merchant: size,
      request: name,
      bigMs: median(bigMs),
      smallMs: median(smallMs),
    });
  }
  return rows;
}

/** `/health`, one call after another, alone and then while three listings of the large merchant run back to back. */
async function healthFigures(service: BenchService, big: Merchant, total: number): Promise<Health> {
  const health = async (until: number) => {
    const ms: number[] = [];
    while (performance.now() < until && ms.length < 100_000) {
      const started = performance.now();
      await send(service.process.baseUrl, 'GET', '/health');
      ms.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return ms;
  };
  const idle = await health(performance.now() + 2_000);
  const { 'first page': firstPage, 'one day': oneDay, 'last page by pageNumber': lastPage } = requests(big, total, '');
  const until = performance.now() + HEALTH_SECONDS * 1_000;
  let listings = 0;
  const loop = async (request: { path: string }) => {
    while (performance.now() < until && listings < 100_000) {
      await timed(service, request);
      listings++;
    }
  };
  const [loaded] = await Promise.all([health(until), loop(firstPage), loop(oneDay), loop(lastPage)]);
  return {
    database: service.database,
    besides: 'three listings (first page, one day, last page)',
    idleP99Ms: p99(idle),
    loadedP99Ms: p99(loaded),
    loadedMaxMs: Math.max(...loaded),
    listings,
  };
}

interface Measured {
  rows: Row[];
  health: Health[];
  console: ConsoleRow[];
  exported: ExportFigures | undefined;
}

async function onService(service: BenchService, dataDir: string): Promise<Measured> {
  const big = await merchant(service);
  const small = await merchant(service);
  const database = beside(service, dataDir);
  const measured: Measured = { rows: [], health: [], console: [], exported: undefined };
  try {
    let seeded = 1;
    for (const [step, size] of SIZES.entries()) {
      const started = performance.now();
      const history = {
        clientId: BENCH_CLIENT.PAYKIT_CLIENT_ID,
        merchantId: big.id,
        count: size - seeded,
        days: 365,
        end: HISTORY_END,
        prefix: `growth${step}`,
      };
      await database.run(transactionHistorySql(database.dialect, history));
      await database.run(paymentRequestHistorySql(database.dialect, history));
      // At rest: PostgreSQL as autovacuum leaves it, SQLite with the history checkpointed out of its WAL.
      await database.run(database.dialect === 'postgres' ? 'VACUUM ANALYZE' : 'PRAGMA wal_checkpoint(TRUNCATE)');
      seeded = size;
      console.log(
        `growth bench: ${service.database}, ${size.toLocaleString('en')} transactions written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      // SQLite's history was written on this thread, minutes long: let the loop see the kept-alive sockets the service closed meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (const m of [big, small]) m.tokens = await sessions(service, m.key);
      measured.rows.push(...(await listingFigures(service, size, big, small)));
    }
    measured.health.push(await healthFigures(service, big, seeded));
    const lastPrefix = `growth${SIZES.length - 1}`;
    measured.console = await consoleFigures(service, big, small, lastPrefix, SAMPLES);
    const slowest = measured.console.reduce((a, b) => (b.bigMs > a.bigMs ? b : a));
    const query = Object.fromEntries(
      Object.entries(consoleQuestions(small, lastPrefix)).map(([name, [ofBig]]) => [name, ofBig]),
    )[slowest.question]!;
    const idle = await healthWhile(
      service,
      (
        (until) => () =>
          performance.now() >= until
      )(performance.now() + 2_000),
    );
    const beside = await healthBesideConsole(service, big, query, HEALTH_SECONDS);
    measured.health.push({
      database: service.database,
      besides: `three loops of the slowest console question (${slowest.question})`,
      idleP99Ms: p99(idle),
      loadedP99Ms: beside.p99Ms,
      loadedMaxMs: beside.maxMs,
      listings: beside.asked,
    });
    measured.exported = await exportFigures(service, big);
  } finally {
    await database.close();
  }
  return measured;
}

/** The growth tables, `/health` beside listings and the console, the export; on SQLite and (with `databaseUrl`) PostgreSQL; printed. */
export async function measureGrowth(databaseUrl: string | undefined): Promise<void> {
  const all: Measured[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'paykit-growth-'));
  try {
    const sqlite = await serviceOnSqlite(dataDir, BENCH_CLIENT);
    try {
      all.push(await onService(sqlite, dataDir));
    } finally {
      await sqlite.stop();
    }
    if (databaseUrl) {
      // Minutes of seeding each: SQLite's figures are not lost to a failure on PostgreSQL.
      printGrowth(all);
      const postgres = await serviceOnPostgres(databaseUrl, BENCH_CLIENT);
      try {
        all.push(await onService(postgres, dataDir));
      } finally {
        await postgres.stop();
      }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  printGrowth(all);
}

function printGrowth(all: Measured[]): void {
  const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));
  const largest = SIZES.at(-1)!.toLocaleString('en');
  console.log(
    `\nGrowth: a merchant's listing with a history of n transactions (a year of them) against a one-sale merchant's, interleaved, ` +
      `median of ${SAMPLES} each, ms; ${PER_PAGE} a page. Aims at 1M: first page, one day and by cursor ≤ 2× the one-sale merchant; last page by pageNumber ≤ 50 ms.`,
  );
  console.table(
    all
      .flatMap((m) => m.rows)
      .map((row) => ({
        database: row.database,
        request: row.request,
        transactions: row.merchant.toLocaleString('en'),
        'large merchant ms': ms(row.bigMs),
        'one-sale merchant ms': ms(row.smallMs),
        '× one-sale': (row.bigMs / row.smallMs).toFixed(2),
      })),
  );
  console.log(
    `\nThe payments console at ${largest} transactions against one sale (GET /widgets/transactions, ${PER_PAGE} a page), median of ${SAMPLES} each, ms; aim ≤ 2×:`,
  );
  console.table(
    all
      .flatMap((m) => m.console)
      .map((row) => ({
        database: row.database,
        question: row.question,
        'large merchant ms': ms(row.bigMs),
        'one-sale merchant ms': ms(row.smallMs),
        '× one-sale': (row.bigMs / row.smallMs).toFixed(2),
      })),
  );
  console.log(
    `\n/health, one call every 5 ms, alone and while three loops of the ${largest}-transaction merchant's reads run back to back for ${HEALTH_SECONDS} s; aim p99 ≤ 20 ms:`,
  );
  console.table(
    all
      .flatMap((m) => m.health)
      .map((h) => ({
        database: h.database,
        beside: h.besides,
        'alone p99 ms': ms(h.idleP99Ms),
        'beside p99 ms': ms(h.loadedP99Ms),
        'max ms': ms(h.loadedMaxMs),
        'reads served': h.listings,
      })),
  );
  console.log(
    `\nThe CSV export of the ${largest}-transaction merchant's whole history, streamed, with /health beside it:`,
  );
  console.table(
    all
      .flatMap((m) => (m.exported ? [m.exported] : []))
      .map((e) => ({
        database: e.database,
        rows: e.rows.toLocaleString('en'),
        seconds: e.seconds.toFixed(1),
        'rows/s': Math.round(e.rows / e.seconds).toLocaleString('en'),
        'slowest second, rows': e.slowestSecondRows.toLocaleString('en'),
        'RSS before MB': e.rssBeforeMb.toFixed(0),
        'peak RSS MB': e.peakRssMb.toFixed(0),
        '/health p99 ms': ms(e.healthP99Ms),
        '/health max ms': ms(e.healthMaxMs),
      })),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await measureGrowth(process.env.DATABASE_URL);
