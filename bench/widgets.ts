import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import Fastify from 'fastify';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { launchChromium } from '../test/support/chromium.ts';
import { scriptTagRoute } from '../server/routes/script-tag.ts';
import { browserTargets, buildScriptTag } from '../server/script-tag/bundle.ts';
import { compressFile, IMMUTABLE, sendFile, type ServedFile } from '../server/static/served-file.ts';
import { median } from './median.ts';

/** Lighthouse's "slow 4G": 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip; and its mobile CPU, 4× slower. */
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 };
const CPU_SLOWDOWN = 4;
/** Rounds of the throttled visits; each round visits every page once, so the machine's drift falls on all alike. */
const ROUNDS = Number(process.env.BENCH_WIDGET_ROUNDS ?? 12);
const TABLE_WARM_UP = 3;
const TABLE_RUNS = 12;

export interface DeliveryFigures {
  /** Brotli bytes of the loader as built. */
  loaderBytes: number;
  /** Paykit JavaScript bytes on the wire (bodies) before the single pay button is interactive. */
  payButtonPage: number;
  /** Bytes on the wire for a page with all three elements. */
  allElementsPage: number;
  /**
   * Milliseconds from navigation to the element interactive (defined and rendered), slow 4G and CPU ×4, median of
   * ROUNDS interleaved: a bare Lit element in one module (the floor), and the pay button with the script tag.
   */
  interactiveMs: { bareLit: number; payButton: number };
  /** The repeat visit: hashed files' bytes on the wire (from the cache: 0) and the loader's status. */
  repeatVisit: { hashedBytes: number; loaderStatus: number };
  /**
   * Milliseconds from the data in hand to 1,000 rows committed and laid out, median of TABLE_RUNS interleaved:
   * <transactions-table> with every console feature (from its listing's answer), and a plain lit-html table (the floor).
   */
  tableRenderMs: { paykit: number; litHtml: number };
}

const transactions = Array.from({ length: 1000 }, (_, i) => ({
  transaction_id: `txn_${i}`,
  created_date: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
  amount: `${(i % 97) + 1}.00`,
  net_amount: `${(i % 97) + 0.5}`,
  card_brand: 'Visa',
  last_four: '4242',
  status: 'completed',
  type: 'sale',
}));

/** The floors (bench/floors/), each one module bundled and compressed as the script tag's files are. */
async function buildFloors(): Promise<Map<string, ServedFile>> {
  const { build } = await import('esbuild');
  const names = ['bare-lit-element', 'lit-html-table'];
  const { outputFiles } = await build({
    entryPoints: names.map((name) => new URL(`floors/${name}.ts`, import.meta.url).pathname),
    bundle: true,
    format: 'esm',
    minify: true,
    target: await browserTargets(),
    write: false,
    outdir: 'floors',
    legalComments: 'none',
  });
  return new Map(
    await Promise.all(
      names.map(async (name, index) => [`${name}.js`, await compressFile(outputFiles[index]!.text)] as const),
    ),
  );
}

/**
 * The service's side on loopback: the real script-tag route (with the loader's max-age at 1 s, so the repeat visit a
 * second later revalidates it), the floors, and a listing of 1,000 transactions for the table.
 */
async function startDelivery(floors: Map<string, ServedFile>) {
  const app = Fastify();
  await app.register(scriptTagRoute, { loaderMaxAge: 1 });
  app.get<{ Params: { file: string } }>('/floors/:file', async (request, reply) =>
    sendFile(request, reply, floors.get(request.params.file)!, { anyOrigin: true, cacheControl: IMMUTABLE }),
  );
  app.get('/api/v1/widgets/transactions', async (_request, reply) =>
    reply.header('access-control-allow-origin', '*').send({
      result: true,
      message: 'ok',
      data: {
        items: transactions,
        page: 1,
        perPage: 1000,
        totalCount: 1000,
        features: { refunds: true, voids: true, captures: true, export: true, receipts: true },
      },
    }),
  );
  app.options('/api/v1/widgets/transactions', async (_request, reply) =>
    reply
      .code(204)
      .header('access-control-allow-origin', '*')
      .header('access-control-allow-headers', 'authorization')
      .send(),
  );
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  return { origin, close: () => app.close() };
}

/** The merchant's pages, on another loopback origin. */
async function startPages(service: string): Promise<{ origin: string; server: Server }> {
  const interactive = (
    tag: string,
  ) => `<script>window.interactive = customElements.whenDefined('${tag}').then(async () => {
    await document.querySelector('${tag}').updateComplete; return performance.now(); });</script>`;
  const page = (head: string, body: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>${head}</head><body>${body}</body></html>`;
  const scriptTag = `<script type="module" src="${service}/paykit.js"></script>`;
  const pages: Record<string, string> = {
    '/bare-lit': page(
      `<script type="module" src="${service}/floors/bare-lit-element.js"></script>${interactive('bare-lit-element')}`,
      '<h1>Cake</h1><bare-lit-element amount="25.00"></bare-lit-element>',
    ),
    '/pay': page(`${scriptTag}${interactive('pay-button')}`, '<h1>Cake</h1><pay-button amount="25.00"></pay-button>'),
    '/all': page(
      `${scriptTag}${interactive('pay-button')}`,
      '<pay-button amount="25.00"></pay-button><request-payment-button amount="5.00"></request-payment-button><transactions-table></transactions-table>',
    ),
    '/table': page(scriptTag, ''),
    '/lit-html-table': page(`<script type="module" src="${service}/floors/lit-html-table.js"></script>`, ''),
  };
  const server = createServer((request, response) => {
    const body = pages[(request.url ?? '/').split('?')[0]!];
    if (!body) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return { origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, server };
}

interface Transfer {
  url: string;
  status: number;
  /** Body bytes received over the network (0 when it came from the cache). */
  bytes: number;
}

/** Records what the page transfers, through the DevTools protocol, optionally on an emulated network and CPU. */
async function recordTransfers(context: BrowserContext, page: Page, throttle: boolean): Promise<Transfer[]> {
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  if (throttle) {
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  }
  const transfers = new Map<string, Transfer & { headerBytes: number }>();
  // The status on the wire: a revalidated response is reported as the cached 200, its 304 only here.
  const wireStatus = new Map<string, number>();
  const done: Transfer[] = [];
  cdp.on('Network.responseReceivedExtraInfo', ({ requestId, statusCode }) => wireStatus.set(requestId, statusCode));
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    transfers.set(requestId, {
      url: response.url,
      status: response.status,
      bytes: 0,
      headerBytes: response.fromDiskCache || response.fromPrefetchCache ? 0 : response.encodedDataLength,
    });
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const transfer = transfers.get(requestId);
    if (transfer)
      done.push({
        url: transfer.url,
        status: wireStatus.get(requestId) ?? transfer.status,
        bytes: Math.max(0, encodedDataLength - transfer.headerBytes),
      });
  });
  return done;
}

const paykitJs = (transfers: Transfer[], service: string) =>
  transfers.filter(({ url }) => url.startsWith(service) && url.endsWith('.js'));
const sum = (transfers: Transfer[]) => transfers.reduce((total, { bytes }) => total + bytes, 0);

/** One visit in a fresh browser context (empty cache): the element's interactive time and what was transferred. */
async function visit(browser: Browser, url: string, throttle: boolean) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const transfers = await recordTransfers(context, page, throttle);
  await page.goto(url);
  const interactiveMs = await page.evaluate(() => (window as unknown as { interactive: Promise<number> }).interactive);
  await page.waitForLoadState('networkidle');
  return { context, page, transfers, interactiveMs };
}

/**
 * 1,000 rows, from the data in hand to the rows committed and laid out, median of TABLE_RUNS after three warm-up
 * runs (the first renders include compiling the code), each run rendering a new table into a page laid out before:
 * <transactions-table> with every console feature, timed from its listing's answer (its `transactions-load` event),
 * and the plain lit-html table, timed from its call, in turns.
 */
async function tableRender(
  browser: Browser,
  pages: string,
  service: string,
): Promise<DeliveryFigures['tableRenderMs']> {
  const paykit = await browser.newPage();
  await paykit.goto(`${pages}/table`);
  const floor = await browser.newPage();
  await floor.goto(`${pages}/lit-html-table`);
  const items = await floor.evaluate(
    async (base) => (await (await fetch(`${base}/api/v1/widgets/transactions`)).json()).data.items,
    service,
  );
  const runs = { paykit: [] as number[], litHtml: [] as number[] };
  for (let run = 0; run < TABLE_WARM_UP + TABLE_RUNS; run++) {
    const paykitMs = await paykit.evaluate(async (base) => {
      document.body.replaceChildren();
      const table = document.createElement('transactions-table') as HTMLElement & { updateComplete: Promise<unknown> };
      table.setAttribute('base-url', base);
      document.body.append(table);
      await customElements.whenDefined('transactions-table');
      await table.updateComplete;
      // Laid out before its data, as on a page whose listing takes longer than a frame (here it is on loopback).
      table.getBoundingClientRect();
      let answered = 0;
      const loaded = new Promise((resolve) =>
        table.addEventListener('transactions-load', () => resolve((answered = performance.now())), { once: true }),
      );
      table.setAttribute('session-token', 'wst_bench');
      await loaded;
      await table.updateComplete;
      const rows = table.shadowRoot!.querySelectorAll('tbody tr');
      if (rows.length !== 1000) throw new Error(`rendered ${rows.length} rows`);
      rows[999]!.getBoundingClientRect();
      return performance.now() - answered;
    }, service);
    const litHtmlMs = await floor.evaluate(async (rows) => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      const container = document.createElement('div');
      document.body.replaceChildren(container);
      container.getBoundingClientRect();
      const started = performance.now();
      (window as unknown as { renderFloorTable(items: unknown[], into: HTMLElement): void }).renderFloorTable(
        rows,
        container,
      );
      const rendered = container.querySelectorAll('tbody tr');
      if (rendered.length !== 1000) throw new Error(`rendered ${rendered.length} rows`);
      rendered[999]!.getBoundingClientRect();
      return performance.now() - started;
    }, items);
    if (run >= TABLE_WARM_UP) {
      runs.paykit.push(paykitMs);
      runs.litHtml.push(litHtmlMs);
    }
  }
  await paykit.close();
  await floor.close();
  return { paykit: median(runs.paykit), litHtml: median(runs.litHtml) };
}

/** Everything the widgets' part of `npm run bench` prints, measured in Chromium on loopback. */
export async function measureWidgets(): Promise<DeliveryFigures> {
  const bundle = await buildScriptTag();
  const delivery = await startDelivery(await buildFloors());
  const pages = await startPages(delivery.origin);
  const browser = await launchChromium();
  try {
    // Warm up: the first visit builds the script tag's files, as a service's first request does.
    await (await visit(browser, `${pages.origin}/pay`, false)).context.close();
    await (await visit(browser, `${pages.origin}/bare-lit`, false)).context.close();

    const times = { '/bare-lit': [] as number[], '/pay': [] as number[] };
    const paths = Object.keys(times) as (keyof typeof times)[];
    let payButtonPage = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // Each round starts with another page, so none always follows the same one.
      for (const path of [...paths.slice(round % paths.length), ...paths.slice(0, round % paths.length)]) {
        const { context, transfers, interactiveMs } = await visit(browser, `${pages.origin}${path}`, true);
        times[path].push(interactiveMs);
        if (path === '/pay') payButtonPage = sum(paykitJs(transfers, delivery.origin));
        await context.close();
      }
    }

    const all = await visit(browser, `${pages.origin}/all`, false);
    const allElementsPage = sum(paykitJs(all.transfers, delivery.origin));
    await all.context.close();

    // The repeat visit, in the same browser after the loader's (shortened) max-age.
    const first = await visit(browser, `${pages.origin}/pay`, false);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const again = await first.context.newPage();
    const repeat = await recordTransfers(first.context, again, false);
    await again.goto(`${pages.origin}/pay`);
    await again.evaluate(() => (window as unknown as { interactive: Promise<number> }).interactive);
    await again.waitForLoadState('networkidle');
    const loader = paykitJs(repeat, delivery.origin).find(({ url }) => url.endsWith('/paykit.js'));
    const repeatVisit = {
      hashedBytes: sum(paykitJs(repeat, delivery.origin).filter(({ url }) => url.includes('/paykit/'))),
      loaderStatus: loader?.status ?? 0,
    };
    await first.context.close();

    return {
      loaderBytes: bundle.loader.br.length,
      payButtonPage,
      allElementsPage,
      interactiveMs: { bareLit: median(times['/bare-lit']), payButton: median(times['/pay']) },
      repeatVisit,
      tableRenderMs: await tableRender(browser, pages.origin, delivery.origin),
    };
  } finally {
    await browser.close();
    pages.server.close();
    await delivery.close();
  }
}
