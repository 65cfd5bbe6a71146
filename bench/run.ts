import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { send } from '../test/support/http.ts';
import type { GroupSizeSummary } from '../server/store/sqlite/group-sizes.ts';
import { startBare } from './bare.ts';
import { load, WARM_UP_SECONDS, type LoadOptions, type LoadResult } from './load.ts';
import { combineRounds, ratioToNeighbours, type Combined, type RatioToBare } from './rounds.ts';
import { measureFloors, type Floor } from './floor.ts';
import { scenarios, type Api } from './scenarios.ts';
import { serviceOnPostgres, serviceOnSqlite, type BenchService } from './services.ts';
import { measureWebhooks, type WebhookFigures } from './webhooks.ts';
import { MINIMAL_PATH, startMinimalWriteServer } from './minimal.ts';
import { BUDGETS, measureWidgets } from './widgets.ts';
import { measureGrowth } from './growth.ts';
import { BENCH_AUTH, BENCH_CLIENT, basicAuthorization } from './credentials.ts';

/**
 * `npm run bench`: throughput and latency of the service's endpoints, on the embedded database and (with
 * DATABASE_URL set) on PostgreSQL, each as a ratio to a bare Fastify JSON route. Each endpoint runs in several
 * rounds, each followed by a run of the bare route; each round is divided by the bare route's runs on either side of
 * it, and an endpoint's figure is the median of those ratios: the machine's speed drifts, and moves both together.
 * Each write is also set against its floor: the same statements through better-sqlite3 alone.
 */
const DURATION = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Parts to leave out while iterating on one, e.g. BENCH_SKIP=widgets,webhooks,floor,minimal,growth. */
const SKIP = new Set((process.env.BENCH_SKIP ?? '').split(',').map((part) => part.trim()));

/** What the issues asked of each endpoint: a ratio to the bare route, and a p99 for the payment writes. */
const AIMS: Record<string, { ratio: number; p99Ms?: number }> = {
  'GET /merchant (1 merchant)': { ratio: 0.6 },
  'POST /customers/add': { ratio: 0.3 },
  'POST /requests (with an e-mail)': { ratio: 0.2, p99Ms: 30 },
  'POST /order/sales-return (0.01 each, one sale)': { ratio: 0.2, p99Ms: 30 },
};

const MINIMAL_ROW = '  the same on Fastify and better-sqlite3 alone (bench/minimal-write-server.ts)';

interface Row {
  database: string;
  name: string;
  result: Combined;
  ratio: RatioToBare;
  groups?: GroupSizeSummary | undefined;
}

const authHeader = basicAuthorization(BENCH_AUTH);

const rows: Row[] = [];
const bareRuns: LoadResult[] = [];
const bare = await startBare();
const measureBare = async () => {
  bareRuns.push(await load({ url: bare.url, duration: DURATION, cpuOf: bare.pid, warmUp: bareRuns.length === 0 }));
};
const percent = (share: number | undefined) => (share === undefined ? '' : `${Math.round(share * 100)}%`);

/** `ROUNDS` runs of one load, each followed by a run of the bare route, and each set against the bare runs around it. */
async function measureRounds(options: LoadOptions): Promise<{ result: Combined; ratio: RatioToBare }> {
  const bareBefore = bareRuns.length - 1;
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    rounds.push(await load({ ...options, ...(round > 0 ? { warmUp: false, afterWarmUp: undefined } : {}) }));
    await measureBare();
  }
  const bareAround = bareRuns.slice(bareBefore).map((run) => run.requestsPerSecond);
  return { result: combineRounds(rounds), ratio: ratioToNeighbours(rounds.map((round) => round.requestsPerSecond), bareAround) };
}

/** Every scenario on one service, in rounds (`measureRounds`). */
async function measureScenarios(service: BenchService): Promise<void> {
  const api: Api = async (method, path, json) => {
    const answer = await send(service.process.baseUrl, method, `/api/v1${path}`, { auth: BENCH_AUTH, ...(json === undefined ? {} : { json }) });
    return { status: answer.status, body: answer.body };
  };
  for (const scenario of scenarios()) {
    const { method, path, body, keyed } = await scenario.prepare(api);
    const measured = await measureRounds({
      url: `${service.process.baseUrl}${path}`,
      method,
      headers: { authorization: authHeader, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body } : {}),
      keyed,
      duration: DURATION,
      afterWarmUp: async () => void (await service.groupSizes?.()),
      cpuOf: service.process.child.pid,
    });
    rows.push({ database: service.database, name: scenario.name, ...measured, groups: await service.groupSizes?.() });
    if (service.database === 'SQLite' && path === MINIMAL_PATH && !SKIP.has('minimal')) await measureMinimal(body);
  }
}

/** The same call on bench/minimal-write-server.ts, the least this stack does for it, on a copy of the service's database. */
async function measureMinimal(body: (() => string) | undefined): Promise<void> {
  const minimal = await startMinimalWriteServer(join(dataDir, 'paykit.sqlite'), join(dataDir, 'minimal'));
  try {
    const measured = await measureRounds({
      url: `${minimal.baseUrl}${MINIMAL_PATH}`, method: 'POST', headers: { 'content-type': 'application/json' }, ...(body ? { body } : {}),
      duration: DURATION, cpuOf: minimal.pid,
    });
    rows.push({ database: 'SQLite', name: MINIMAL_ROW, ...measured });
  } finally {
    minimal.stop();
  }
}

let webhooks: WebhookFigures | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'paykit-bench-'));
try {
  await measureBare();
  const sqlite = await serviceOnSqlite(dataDir, BENCH_CLIENT);
  try {
    await measureScenarios(sqlite);
    if (!SKIP.has('webhooks')) webhooks = await measureWebhooks(sqlite.process.baseUrl, dataDir);
  } finally {
    await sqlite.stop();
  }
  if (process.env.DATABASE_URL) {
    const postgres = await serviceOnPostgres(process.env.DATABASE_URL, BENCH_CLIENT);
    try {
      await measureScenarios(postgres);
    } finally {
      await postgres.stop();
    }
  }
} finally {
  bare.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

const meanGroupSizes = new Map(rows.filter((row) => row.groups).map((row) => [row.name, row.groups!.units / Math.max(1, row.groups!.groups)]));
const floors = SKIP.has('floor') ? new Map<string, Floor>() : await measureFloors(scenarios(), meanGroupSizes, BENCH_AUTH);

// The bare route's runs taken together as an endpoint's rounds are: medians, and the range of its throughput.
const bareFigures = combineRounds(bareRuns);
const baseline = bareFigures.requestsPerSecond;
const bareCpu = bareFigures.cpuUsPerRequest!;
/** To the run's median bare route: for figures not measured in rounds (the floors), and beside the rounds' own ratio. */
const ratio = (requestsPerSecond: number) => requestsPerSecond / baseline;
console.log(
  `\nBare Fastify JSON route (the baseline): median ${Math.round(baseline)} req/s of ${bareRuns.length} runs ` +
    `(${bareFigures.requestsPerSecondRange.map(Math.round).join('–')}), one before and one after every round of an endpoint; ` +
    `${Math.round(bareCpu)} µs of CPU a request (median). ` +
    `CPU ratio: that over the service process's CPU a request (PostgreSQL's own CPU not counted), which a busy machine moves less than throughput. ` +
    `Busy: the share of each run's time the serving process's event loop ran, and the load generator (autocannon, in the bench's process); ` +
    `the bare route's ${percent(bareFigures.eventLoopBusy)} and ${percent(bareFigures.loadGeneratorBusy)}: ` +
    `the side near 100% is the one that bounds a throughput.`,
);
for (const database of ['SQLite', 'PostgreSQL']) {
  const measured = rows.filter((row) => row.database === database);
  if (measured.length === 0) {
    console.log(`\n${database}: not measured (set DATABASE_URL to a PostgreSQL database the bench may create a schema in).`);
    continue;
  }
  console.log(
    `\nThroughput on ${database === 'SQLite' ? 'the embedded database (synchronous=FULL, group commit)' : 'PostgreSQL'}, 50 connections, loopback; ` +
      `${ROUNDS} rounds of ${DURATION} s each, the first after ${WARM_UP_SECONDS} s of warm-up. Ratio to bare: each round's throughput over ` +
      `the mean of the bare route's runs just before and after it, the median round's (lowest–highest round); to the median bare: the median ` +
      `round over the median of all the bare route's runs; the worst round's p99:`,
  );
  console.table(measured.map(({ name, result, ratio: toBare, groups }) => {
    const aim = AIMS[name];
    const met = aim && toBare.median >= aim.ratio && (aim.p99Ms === undefined || result.p99Ms <= aim.p99Ms);
    return {
      endpoint: name,
      'req/s': Math.round(result.requestsPerSecond),
      'ratio to bare': `${toBare.median.toFixed(2)} (${toBare.range.map((value) => value.toFixed(2)).join('–')})`,
      'to median bare': ratio(result.requestsPerSecond).toFixed(2),
      'p99 ms': result.p99Ms,
      'CPU µs/req': Math.round(result.cpuUsPerRequest ?? 0),
      'CPU ratio': (bareCpu / (result.cpuUsPerRequest ?? Infinity)).toFixed(2),
      'busy: loop / generator': `${percent(result.eventLoopBusy)} / ${percent(result.loadGeneratorBusy)}`,
      // Three places where two would show a ratio just under its line as on it (0.198 as 0.20).
      aim: aim ? `≥ ${aim.ratio}${aim.p99Ms ? `, p99 ≤ ${aim.p99Ms}` : ''}: ${met ? 'met' : 'NOT MET'} (${toBare.median.toFixed(3)})` : '',
      'writes per commit': groups && groups.groups > 0 ? (groups.units / groups.groups).toFixed(1) : '',
      'non-2xx': result.non2xx,
      errors: result.errors,
    };
  }));
}

const sqliteWrites = rows.filter((row) => row.database === 'SQLite' && floors.has(row.name));
if (sqliteWrites.length > 0) {
  console.log('\nEach write against its floor: the same statements through better-sqlite3 alone, WAL, synchronous=FULL (ratios to the median bare route):');
  console.table(sqliteWrites.map(({ name, result }) => {
    const floor = floors.get(name)!;
    return {
      endpoint: name,
      service: ratio(result.requestsPerSecond).toFixed(2),
      'floor, one transaction each': ratio(1e6 / floor.oneEachUs).toFixed(2),
      [`floor, grouped as the service did`]: `${ratio(1e6 / floor.groupedUs).toFixed(2)} (${floor.groupSize} a group)`,
      'service / grouped floor': (result.requestsPerSecond / (1e6 / floor.groupedUs)).toFixed(2),
      'µs per request: one each, grouped': `${Math.round(floor.oneEachUs)}, ${Math.round(floor.groupedUs)}`,
    };
  }));
  console.log('\nWrites per commit on the embedded database (groups by size; the warm-up not counted):');
  // Named so that no column is an integer key, which an object would put before the endpoint's name.
  const bySize = (histogram: Record<string, number> = {}) => Object.fromEntries(Object.entries(histogram).map(([sizes, count]) => [`${sizes} a group`, count]));
  console.table(sqliteWrites.map(({ name, groups }) => ({ endpoint: name, groups: groups?.groups ?? 0, ...bySize(groups?.histogram) })));
}

if (webhooks) {
  console.log('\nWebhooks to a loopback receiver (embedded database):');
  console.table([{
    'deliveries/s (5,000 backlog)': Math.round(webhooks.deliveriesPerSecond),
    'state change → delivery, median ms': webhooks.medianMs,
    'p99 ms': webhooks.p99Ms,
    'beside a hanging endpoint, median ms': webhooks.besideHangingMedianMs,
    'beside a hanging endpoint, p99 ms': webhooks.besideHangingP99Ms,
  }]);
}
const widgets = SKIP.has('widgets') ? undefined : await measureWidgets();
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const within = (bytes: number, budget: number) => `${kb(budget)}: ${bytes <= budget ? 'within' : 'OVER'}`;
if (widgets) {
  console.log('\nWidgets in Chromium, loopback (DevTools network accounting; bodies as sent, brotli unless said):');
  console.table([
    { figure: 'loader /paykit.js alone', value: kb(widgets.loaderBytes), budget: within(widgets.loaderBytes, BUDGETS.loader) },
    { figure: 'Paykit JS before a single <pay-button> is interactive', value: kb(widgets.payButtonPage.bytes), budget: within(widgets.payButtonPage.bytes, BUDGETS.payButtonPage) },
    { figure: '  the same page the old way (one uncompressed bundle)', value: kb(widgets.payButtonPage.oldBytes), budget: '' },
    { figure: 'page with all three elements', value: kb(widgets.allElementsPage), budget: within(widgets.allElementsPage, BUDGETS.allElementsPage) },
    { figure: 'navigation → pay button interactive, 1.6 Mbit/s, 150 ms RTT (median)', value: `${Math.round(widgets.interactiveMs.now)} ms`, budget: `${(widgets.interactiveMs.now / widgets.interactiveMs.old).toFixed(2)} of the old way` },
    { figure: '  the same page with modulepreload hints from /paykit.json', value: `${Math.round(widgets.interactiveMs.hinted)} ms`, budget: `${(widgets.interactiveMs.hinted / widgets.interactiveMs.old).toFixed(2)} of the old way` },
    { figure: '  the same page the old way', value: `${Math.round(widgets.interactiveMs.old)} ms`, budget: '' },
    { figure: 'repeat visit: bytes of hashed files transferred', value: `${widgets.repeatVisit.hashedBytes} B`, budget: widgets.repeatVisit.hashedBytes === 0 ? 'all from the cache' : 'REFETCHED' },
    { figure: 'repeat visit: the loader (after its max-age)', value: String(widgets.repeatVisit.loaderStatus), budget: widgets.repeatVisit.loaderStatus === 304 ? 'revalidated' : 'NOT 304' },
    { figure: 'server-rendered page: layout shift while hydrating', value: widgets.ssrLayoutShift.toFixed(3), budget: widgets.ssrLayoutShift === 0 ? 'none' : 'SHIFTS' },
    { figure: '<transactions-table>: 1,000 rows rendered from the answer (median)', value: `${Math.round(widgets.table.renderMs)} ms`, budget: `30 ms: ${widgets.table.renderMs <= 30 ? 'within' : 'OVER'}` },
    { figure: '  the same with the loopback fetch of 1,000 transactions', value: `${Math.round(widgets.table.withFetchMs)} ms`, budget: '' },
  ]);
}

if (!SKIP.has('growth')) await measureGrowth(process.env.DATABASE_URL);

const failed = rows.filter((row) => row.result.non2xx > 0 || row.result.errors > 0);
if (failed.length > 0) {
  console.error(`Some requests failed: ${failed.map((row) => `${row.name} (${row.database})`).join(', ')}`);
  process.exit(1);
}
