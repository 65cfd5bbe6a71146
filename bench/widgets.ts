import { gzipSync } from 'node:zlib';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { launchChromium } from '../test/support/chromium.ts';
import { buildScriptTag } from '../server/script-tag/bundle.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
export const SCRIPT_TAG_BUDGET_BYTES = 12 * 1024;

const ELEMENTS = {
  'pay-button': 'PayButton',
  'request-payment-button': 'RequestPaymentButton',
  'transactions-table': 'TransactionsTable',
} as const;

async function gzippedBundle(contents: string): Promise<number> {
  const result = await build({
    stdin: { contents, resolveDir: root, loader: 'ts' },
    bundle: true, format: 'esm', minify: true, target: 'es2022', write: false, splitting: false,
    tsconfig: `${root}tsconfig.json`, legalComments: 'none',
    // As in the script tag, the QR encoder is loaded on demand and not counted.
    external: ['qrcode'],
  });
  return gzipSync(result.outputFiles[0]!.text).length;
}

/** Gzipped bytes: the script-tag bundle (all three elements, lit-html included, QR chunk excluded) and each element alone. */
export async function measureSizes(): Promise<{ name: string; bytes: number }[]> {
  const { loader } = await buildScriptTag();
  const rows = [{ name: 'script tag /paykit.js (the loader)', bytes: loader.gzip.length }];
  for (const [tag, className] of Object.entries(ELEMENTS)) {
    const bytes = await gzippedBundle(`import { ${className} } from './src/elements/${tag}/${tag}.ts';\ncustomElements.define('${tag}', ${className});`);
    rows.push({ name: `<${tag}> alone (+ lit-html)`, bytes });
  }
  return rows;
}

/**
 * Milliseconds from setting a session token to 1,000 rendered rows of <transactions-table> in headless Chromium,
 * median of 5. A loopback stub answers the listing with 1,000 items, so the figure is rendering, not the database.
 */
export async function measureTableRender(): Promise<number> {
  const items = Array.from({ length: 1000 }, (_, i) => ({
    transaction_id: `txn_${i}`, created_date: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(), amount: `${(i % 97) + 1}.00`,
    net_amount: `${(i % 97) + 0.5}`, card_brand: 'Visa', last_four: '4242', status: 'completed', type: 'sale',
  }));
  const bundle = await buildScriptTag();
  const files = new Map([['paykit.js', bundle.loader.identity.toString()], ...[...bundle.files].map(([name, file]) => [`paykit/${name}`, file.identity.toString()] as [string, string])]);
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    if (path === '/') return response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html lang="en"><body></body></html>');
    if (path.endsWith('.js') && files.has(path.slice(1))) return response.writeHead(200, { 'content-type': 'text/javascript' }).end(files.get(path.slice(1)));
    if (path === '/api/v1/widgets/transactions') {
      return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result: true, message: 'ok', data: { items, page: 1, perPage: 1000, totalCount: 1000 } }));
    }
    response.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.addScriptTag({ type: 'module', url: `${origin}/paykit.js` });
    await page.waitForFunction(() => customElements.get('transactions-table') !== undefined);
    const timings: number[] = [];
    for (let run = 0; run < 5; run++) {
      timings.push(await page.evaluate(async (base) => {
        document.body.replaceChildren();
        const table = document.createElement('transactions-table') as HTMLElement & { updateComplete: Promise<unknown> };
        table.setAttribute('base-url', base);
        const started = performance.now();
        const loaded = new Promise((resolve) => table.addEventListener('transactions-load', resolve, { once: true }));
        table.setAttribute('session-token', 'wst_bench');
        document.body.append(table);
        await loaded;
        await table.updateComplete;
        const rows = table.shadowRoot!.querySelectorAll('tbody tr').length;
        if (rows !== 1000) throw new Error(`rendered ${rows} rows`);
        return performance.now() - started;
      }, origin));
    }
    timings.sort((a, b) => a - b);
    return timings[2]!;
  } finally {
    await browser.close();
    server.close();
  }
}
