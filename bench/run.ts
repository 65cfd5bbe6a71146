import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startServiceProcess } from '../test/support/process.ts';
import { send } from '../test/support/http.ts';
import { validApplication } from '../test/support/fixtures.ts';
import { load, type LoadResult } from './load.ts';
import { measureWebhooks, type WebhookFigures } from './webhooks.ts';
import { BUDGETS, measureWidgets } from './widgets.ts';

/**
 * `npm run bench`: throughput and latency of the service's endpoints on the embedded database, each as a
 * ratio against a bare Fastify JSON route measured the same way in the same run, so machines compare.
 */
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);

async function startBare(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-server.ts'], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/bare`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { url, stop: () => child.kill('SIGTERM') };
}

const rows: { name: string; result: LoadResult }[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'paykit-bench-'));
const credentials = { PAYKIT_CLIENT_ID: 'bench_client', PAYKIT_CLIENT_SECRET: 'bench-secret-0123456789' };
const authHeader = `Basic ${Buffer.from(`${credentials.PAYKIT_CLIENT_ID}:${credentials.PAYKIT_CLIENT_SECRET}`).toString('base64')}`;
const auth = { id: credentials.PAYKIT_CLIENT_ID, secret: credentials.PAYKIT_CLIENT_SECRET };

let webhooks: WebhookFigures | undefined;
const bare = await startBare();
const service = await startServiceProcess({ PAYKIT_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...credentials });
try {
  const onboard = async () => (await send(service.baseUrl, 'POST', '/api/v1/onboarding', { json: validApplication(), auth })).body.data.merchant_key as string;
  const listMerchants = () => load({ url: `${service.baseUrl}/api/v1/merchant`, headers: { authorization: authHeader }, duration: DURATION });

  rows.push({ name: 'bare Fastify JSON route (baseline)', result: await load({ url: bare.url, duration: DURATION }) });
  const merchantKey = await onboard();
  rows.push({ name: 'GET /merchant (1 merchant)', result: await listMerchants() });
  for (let i = 0; i < 9; i++) await onboard();
  // Each listed merchant adds nine text cells, about 0.5 µs each in better-sqlite3 on this machine.
  rows.push({ name: 'GET /merchant (10 merchants)', result: await listMerchants() });
  rows.push({
    name: 'POST /customers/add',
    result: await load({
      url: `${service.baseUrl}/api/v1/customers/add`,
      method: 'POST',
      headers: { authorization: authHeader, 'content-type': 'application/json' },
      body: JSON.stringify({ merchant_key: merchantKey, first_name: 'Bench', last_name: 'Mark', email: 'bench@example.com', phone_number: '+14155550123' }),
      duration: DURATION,
    }),
  });

  let order = 0;
  const paying = (await send(service.baseUrl, 'POST', '/api/v1/onboarding', { json: validApplication(), auth })).body.data;
  await send(service.baseUrl, 'POST', '/api/v1/approve-merchant', { json: { merchant_id: paying.merchant_id }, auth });
  rows.push({
    name: 'POST /requests',
    result: await load({
      url: `${service.baseUrl}/api/v1/requests`,
      method: 'POST',
      headers: { authorization: authHeader, 'content-type': 'application/json' },
      body: () => JSON.stringify({ merchant_key: paying.merchant_key, amount: '25.00', order_id: `bench-${++order}`, email: 'payer@example.com' }),
      duration: DURATION,
    }),
  });
  const link = await send(service.baseUrl, 'POST', '/api/v1/requests', { json: { merchant_key: paying.merchant_key, amount: '90000.00', order_id: 'bench-big-sale' }, auth });
  const sale = await send(service.baseUrl, 'POST', '/api/v1/sandbox/pay', {
    json: { pay_link: link.body.data.pay_link, method: 'card', card_number: '4242424242424242', exp_month: 12, exp_year: 2035, cvc: '123' }, auth,
  });
  rows.push({
    name: 'POST /order/sales-return (0.01 each, one sale)',
    result: await load({
      url: `${service.baseUrl}/api/v1/order/sales-return`,
      method: 'POST',
      headers: { authorization: authHeader, 'content-type': 'application/json' },
      body: JSON.stringify({ merchant_key: paying.merchant_key, transaction_id: sale.body.data.transaction_id, amount: '0.01' }),
      duration: DURATION,
    }),
  });
  webhooks = await measureWebhooks(service.baseUrl, dataDir, auth);
} finally {
  await service.stop();
  bare.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

const baseline = rows[0]!.result.requestsPerSecond;
const table = rows.map(({ name, result }) => ({
  endpoint: name,
  'req/s': Math.round(result.requestsPerSecond),
  'ratio to bare': (result.requestsPerSecond / baseline).toFixed(2),
  'p99 ms': result.p99Ms,
  'non-2xx': result.non2xx,
  errors: result.errors,
}));
console.log(`\nThroughput on the embedded database, 50 connections, ${DURATION} s each, loopback, one run:`);
console.table(table);
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
const widgets = await measureWidgets();
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const within = (bytes: number, budget: number) => `${kb(budget)}: ${bytes <= budget ? 'within' : 'OVER'}`;
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

const failed = rows.filter((row) => row.result.non2xx > 0 || row.result.errors > 0);
if (failed.length > 0) {
  console.error(`Some requests failed: ${failed.map((row) => row.name).join(', ')}`);
  process.exit(1);
}
