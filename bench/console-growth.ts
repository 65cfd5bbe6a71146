import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { send } from '../test/support/http.ts';
import type { BenchService } from './services.ts';
import { median } from './median.ts';

/**
 * The payments console at a million sales (issue 43): each filter, search form and a few of their combinations, the
 * large merchant's against the one-sale merchant's, interleaved; `/health` beside three loops of the slowest; the CSV
 * export of the whole history. The large merchant's history is test/support/history.ts's; the one-sale merchant
 * asks the same questions of its own sale (its id, its order id, its e-mail).
 */
/** `tokens`: console sessions of the merchant, taken in turn (with the caller's address), so the console's rate limits stay out of the figures. */
export interface ConsoleMerchant {
  tokens: string[];
  saleId: string;
  orderId: string;
}
export interface ConsoleRow {
  database: string;
  question: string;
  bigMs: number;
  smallMs: number;
}
export interface ExportFigures {
  database: string;
  rows: number;
  seconds: number;
  slowestSecondRows: number;
  rssBeforeMb: number;
  peakRssMb: number;
  healthP99Ms: number;
  healthMaxMs: number;
}

/** What is asked: a query string of GET /widgets/transactions, for the large merchant and for the one-sale merchant. */
export function consoleQuestions(small: ConsoleMerchant, lastPrefix: string): Record<string, [string, string]> {
  const both = (query: string): [string, string] => [query, query];
  return {
    'console: first page': both(''),
    'status=refunded': both('status=refunded'),
    'status=declined': both('status=declined'),
    'kind=refund': both('kind=refund'),
    'card_brand=amex': both('card_brand=amex'),
    'one week': both('from_date=2026-06-01&to_date=2026-06-07'),
    'sort=amount': both('sort=amount'),
    'refunded Visa sales by amount': both('kind=sale&status=refunded&card_brand=visa&sort=amount'),
    'search: transaction id': [`q=txn_${lastPrefix}_777`, `q=${small.saleId}`],
    'search: order id, another case': [
      `q=ORDER-${lastPrefix.toUpperCase()}-777777`,
      `q=${small.orderId.toUpperCase()}`,
    ],
    'search: order id beginning (111 of them)': [`q=order-${lastPrefix}-7777`, `q=${small.orderId.slice(0, 8)}`],
    'search: last four': both('q=4242'),
    'search: amount': [`q=123.45`, 'q=10.00'],
    'search: e-mail': both('q=shopper11@example.com'),
    'search: nothing found': both('q=no-such-order'),
    'search: last four, refunded, by amount': both('q=4242&status=refunded&sort=amount'),
  };
}

let turn = 0;
/** One console call, from the next of 250 loopback addresses with the next of the merchant's sessions: its time. */
async function timed(service: BenchService, merchant: ConsoleMerchant, query: string): Promise<number> {
  turn++;
  const headers = { authorization: `Bearer ${merchant.tokens[turn % merchant.tokens.length]}` };
  const url = new URL(`/api/v1/widgets/transactions?perPage=20&${query}`, service.process.baseUrl);
  const started = performance.now();
  const [status, text] = await new Promise<[number, string]>((resolve, reject) => {
    request(url, { headers, localAddress: `127.0.0.${2 + (turn % 250)}` }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve([res.statusCode ?? 0, Buffer.concat(chunks).toString()]));
    })
      .on('error', reject)
      .end();
  });
  const ms = performance.now() - started;
  if (status !== 200) throw new Error(`growth bench: console ?${query} answered ${status}: ${text.slice(0, 300)}`);
  return ms;
}

/** Each question, large and one-sale merchant interleaved, median of `samples`. */
export async function consoleFigures(
  service: BenchService,
  big: ConsoleMerchant,
  small: ConsoleMerchant,
  lastPrefix: string,
  samples: number,
): Promise<ConsoleRow[]> {
  const rows: ConsoleRow[] = [];
  for (const [question, [ofBig, ofSmall]] of Object.entries(consoleQuestions(small, lastPrefix))) {
    await timed(service, big, ofBig);
    await timed(service, small, ofSmall);
    const bigMs: number[] = [];
    const smallMs: number[] = [];
    for (let i = 0; i < samples; i++) {
      bigMs.push(await timed(service, big, ofBig));
      smallMs.push(await timed(service, small, ofSmall));
    }
    rows.push({ database: service.database, question, bigMs: median(bigMs), smallMs: median(smallMs) });
  }
  return rows;
}

export const p99 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.99))]!;

/** `/health`, one call every 5 ms, until `until` (a time) or `done()`. */
export async function healthWhile(service: BenchService, until: () => boolean): Promise<number[]> {
  const ms: number[] = [];
  while (!until() && ms.length < 100_000) {
    const started = performance.now();
    await send(service.process.baseUrl, 'GET', '/health');
    ms.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return ms;
}

/** `/health` while three loops ask the large merchant's slowest question, back to back, for `seconds`. */
export async function healthBesideConsole(service: BenchService, big: ConsoleMerchant, query: string, seconds: number) {
  const until = performance.now() + seconds * 1_000;
  let asked = 0;
  const loop = async () => {
    while (performance.now() < until && asked < 100_000) {
      await timed(service, big, query);
      asked++;
    }
  };
  const [health] = await Promise.all([healthWhile(service, () => performance.now() >= until), loop(), loop(), loop()]);
  return { p99Ms: p99(health), maxMs: Math.max(...health), asked };
}

/** The service process's resident memory now, in MB. */
const rssMb = (service: BenchService) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${service.process.child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** The CSV export of the large merchant's whole history, streamed and counted as it comes; memory and `/health` beside it. */
export async function exportFigures(service: BenchService, big: ConsoleMerchant): Promise<ExportFigures> {
  const rssBeforeMb = rssMb(service);
  let peakRssMb = rssBeforeMb;
  const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, rssMb(service))), 100);
  const started = performance.now();
  const perSecond: number[] = [];
  let rows = -1; // the header row
  let done = false;
  const exported = new Promise<void>((resolve, reject) => {
    const url = new URL('/api/v1/widgets/transactions/export.csv', service.process.baseUrl);
    request(url, { headers: { authorization: `Bearer ${big.tokens[0]}` } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`growth bench: the export answered ${res.statusCode}`));
      res.on('data', (chunk: Buffer) => {
        let lines = 0;
        for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
        rows += lines;
        const second = Math.floor((performance.now() - started) / 1_000);
        perSecond[second] = (perSecond[second] ?? 0) + lines;
      });
      res.on('end', resolve);
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  }).finally(() => (done = true));
  const [health] = await Promise.all([healthWhile(service, () => done), exported]);
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1_000;
  // Whole seconds only: the last one is cut short.
  const whole = perSecond.slice(0, -1).map((n) => n ?? 0);
  return {
    database: service.database,
    rows,
    seconds,
    slowestSecondRows: whole.length > 0 ? Math.min(...whole) : rows,
    rssBeforeMb,
    peakRssMb,
    healthP99Ms: p99(health),
    healthMaxMs: Math.max(...health),
  };
}
