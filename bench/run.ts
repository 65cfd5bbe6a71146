import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { send } from '../test/support/http.ts';
import { load, WARM_UP_SECONDS } from './load.ts';
import { combineRounds, type Combined } from './rounds.ts';
import { scenarios, type Api } from './scenarios.ts';
import { serviceOnPostgres, serviceOnSqlite, type BenchService } from './services.ts';
import { measureWebhooks, type WebhookFigures } from './webhooks.ts';
import { measureWidgets } from './widgets.ts';
import { BUDGETS } from './widget-budgets.ts';
import { measureGrowth } from './growth.ts';
import { measureLedger } from './ledger.ts';
import { BENCH_AUTH, BENCH_CLIENT, basicAuthorization } from './credentials.ts';
import { writeFloors } from './pg-floor.ts';
import { countRoundTrips, httpWriteFloors, printAgainstFloor } from './pg-writes.ts';
import { measureProcesses } from './processes.ts';
import { measureFootprint } from './footprint.ts';
import { printDocsFigures } from './docs-lighthouse.ts';

/**
 * `npm run bench`: what docs/performance.md reports. Throughput and p99 of the service's endpoints on the embedded
 * database and (with DATABASE_URL set) on PostgreSQL, webhook delivery, and the widgets on the wire in Chromium.
 * Each endpoint runs in BENCH_ROUNDS rounds of BENCH_SECONDS; its figure is the median round's throughput and the
 * worst round's p99. To compare two checkouts' durable write throughput, see bench/compare.ts; the ledger's figures
 * are bench/ledger.ts.
 */
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Parts to leave out while iterating on one, e.g. BENCH_SKIP=sqlite,widgets,webhooks,growth,ledger,lighthouse. */
const SKIP = new Set((process.env.BENCH_SKIP ?? '').split(',').map((part) => part.trim()));

const rows: { database: string; name: string; result: Combined }[] = [];
const headers = { authorization: basicAuthorization(BENCH_AUTH) };

/** Every scenario on one service, in rounds. */
async function measureScenarios(service: BenchService): Promise<void> {
  const api: Api = async (method, path, json) => {
    const answer = await send(service.process.baseUrl, method, `/api/v1${path}`, {
      auth: BENCH_AUTH,
      ...(json === undefined ? {} : { json }),
    });
    return { status: answer.status, body: answer.body };
  };
  for (const scenario of scenarios()) {
    const { method, path, body, keyed } = await scenario.prepare(api);
    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) {
      rounds.push(
        await load({
          url: `${service.process.baseUrl}${path}`,
          method,
          headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body } : {}),
          keyed,
          duration: DURATION,
          warmUp: round === 0,
        }),
      );
    }
    rows.push({ database: service.database, name: scenario.name, result: combineRounds(rounds) });
  }
}

let webhooks: WebhookFigures | undefined;
let floors: Awaited<ReturnType<typeof writeFloors>> | undefined;
let httpFloors: Awaited<ReturnType<typeof httpWriteFloors>> | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'paykit-bench-'));
try {
  if (!SKIP.has('sqlite')) {
    const sqlite = await serviceOnSqlite(dataDir, BENCH_CLIENT);
    try {
      await measureScenarios(sqlite);
      if (!SKIP.has('webhooks')) webhooks = await measureWebhooks(sqlite.process.baseUrl, dataDir);
    } finally {
      await sqlite.stop();
    }
  }
  if (process.env.DATABASE_URL) {
    const postgres = await serviceOnPostgres(process.env.DATABASE_URL, BENCH_CLIENT);
    try {
      await measureScenarios(postgres);
      floors = await writeFloors(postgres.databaseUrl!, DURATION, ROUNDS);
      httpFloors = await httpWriteFloors(postgres.databaseUrl!, DURATION, ROUNDS);
      if (!SKIP.has('processes'))
        await measureProcesses(postgres.process, postgres.databaseUrl!, BENCH_CLIENT, DURATION, ROUNDS);
    } finally {
      await postgres.stop();
    }
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

for (const database of ['SQLite', 'PostgreSQL']) {
  const measured = rows.filter((row) => row.database === database);
  if (measured.length === 0) {
    console.log(
      `\n${database}: not measured (set DATABASE_URL to a PostgreSQL database the bench may create a schema in).`,
    );
    continue;
  }
  console.log(
    `\n${database === 'SQLite' ? 'Embedded database (synchronous=FULL: every answer is on disk)' : 'PostgreSQL (one service process)'}: ` +
      `50 connections on loopback, ${ROUNDS} rounds of ${DURATION} s after ${WARM_UP_SECONDS} s of warm-up; the median round's requests a second, the worst round's p99:`,
  );
  console.table(
    measured.map(({ name, result }) => ({
      endpoint: name,
      'req/s': Math.round(result.requestsPerSecond),
      'lowest–highest round': result.requestsPerSecondRange.map(Math.round).join('–'),
      'p99 ms': result.p99Ms,
      'non-2xx': result.non2xx,
      errors: result.errors,
    })),
  );
}

if (!SKIP.has('footprint')) await measureFootprint(BENCH_CLIENT);
if (!SKIP.has('lighthouse')) await printDocsFigures(BENCH_CLIENT);
if (process.env.DATABASE_URL)
  console.log('\nPostgreSQL round trips per request:', await countRoundTrips(process.env.DATABASE_URL));
if (floors && httpFloors) {
  const measured = (prefix: string) =>
    rows.find((row) => row.database === 'PostgreSQL' && row.name.startsWith(prefix))!.result;
  printAgainstFloor(
    { requests: measured('POST /requests (with an e-mail)'), refunds: measured('POST /order/sales-return') },
    floors,
    httpFloors,
  );
}

if (webhooks) {
  console.log('\nWebhooks to a loopback receiver (embedded database):');
  console.table([
    {
      'deliveries/s (5,000 backlog)': Math.round(webhooks.deliveriesPerSecond),
      'state change → delivery, median ms': webhooks.medianMs,
      'p99 ms': webhooks.p99Ms,
      'beside a hanging endpoint, median ms': webhooks.besideHangingMedianMs,
      'beside a hanging endpoint, p99 ms': webhooks.besideHangingP99Ms,
    },
  ]);
}

const widgets = SKIP.has('widgets') ? undefined : await measureWidgets();
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
/** The budget counts the code without the file names' hashes (about 50 B here); the build's test holds it. */
const budgetOf = (budget: number) => `${kb(budget)} without the names' hashes (test/build/widget-sizes.test.ts)`;
/** A figure against its floor of the same run, and the aim for that ratio. */
const ratio = (ms: number, floor: number, aim: number) =>
  `×${(ms / floor).toFixed(2)} the floor (aim ≤ ×${aim}): ${ms / floor <= aim ? 'within' : 'OVER'}`;
if (widgets) {
  console.log('\nWidgets in Chromium, loopback (DevTools network accounting; brotli bodies as sent):');
  console.table([
    { figure: 'loader /paykit.js alone (it carries the pay button)', value: kb(widgets.loaderBytes), budget: '' },
    {
      figure: 'Paykit JS before a single <pay-button> is interactive',
      value: kb(widgets.payButtonPage),
      budget: budgetOf(BUDGETS.payButtonPage),
    },
    {
      figure: 'page with all three elements',
      value: kb(widgets.allElementsPage),
      budget: budgetOf(BUDGETS.allElementsPage),
    },
    {
      figure: 'navigation → interactive, 1.6 Mbit/s, 150 ms RTT, CPU ×4 (median): a bare Lit element, the floor',
      value: `${Math.round(widgets.interactiveMs.bareLit)} ms`,
      budget: '',
    },
    {
      figure: '  <pay-button> with the script tag',
      value: `${Math.round(widgets.interactiveMs.payButton)} ms`,
      budget: ratio(widgets.interactiveMs.payButton, widgets.interactiveMs.bareLit, 1.2),
    },
    {
      figure: 'repeat visit: bytes of hashed files transferred',
      value: `${widgets.repeatVisit.hashedBytes} B`,
      budget: widgets.repeatVisit.hashedBytes === 0 ? 'all from the cache' : 'REFETCHED',
    },
    {
      figure: 'repeat visit: the loader (after its max-age)',
      value: String(widgets.repeatVisit.loaderStatus),
      budget: widgets.repeatVisit.loaderStatus === 304 ? 'revalidated' : 'NOT 304',
    },
    {
      figure: '1,000 rows, data → committed and laid out (median): a plain lit-html table, the floor',
      value: `${widgets.tableRenderMs.litHtml.toFixed(1)} ms`,
      budget: '',
    },
    {
      figure: '  <transactions-table>, every console feature on',
      value: `${widgets.tableRenderMs.paykit.toFixed(1)} ms`,
      budget: ratio(widgets.tableRenderMs.paykit, widgets.tableRenderMs.litHtml, 1.2),
    },
  ]);
}

if (!SKIP.has('growth')) await measureGrowth(process.env.DATABASE_URL);
if (!SKIP.has('ledger')) await measureLedger(process.env.DATABASE_URL);

const failed = rows.filter((row) => row.result.non2xx > 0 || row.result.errors > 0);
if (failed.length > 0) {
  console.error(`Some requests failed: ${failed.map((row) => `${row.name} (${row.database})`).join(', ')}`);
  process.exit(1);
}
