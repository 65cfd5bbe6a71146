/**
 * The screenshots of `<transactions-table>` as the payments console on a 375 px phone in docs/widgets.md
 * (docs/images/console-*.png): the script tag as built from `src/`, in headless Chromium, against a fixed listing
 * answered in the page (no service, no network), so the pictures change only when the element does.
 *
 *     node scripts/console-screenshots.ts
 */
import { fileURLToPath } from 'node:url';
import { buildScriptTag } from '../server/script-tag/bundle.ts';
import { launchChromium } from '../test/support/chromium.ts';

const ORIGIN = 'https://paykit.test';
const images = fileURLToPath(new URL('../docs/images/', import.meta.url));

const at = (day: number, hour: number) => new Date(Date.UTC(2026, 10, day, hour, 12)).toISOString();
const sale = (id: string, day: number, amount: string, brand: string, last_four: string, more: object = {}) => ({
  transaction_id: id,
  created_date: at(day, 9 + (day % 8)),
  amount,
  net_amount: (Number(amount) * 0.971 - 0.3).toFixed(2),
  card_brand: brand,
  last_four,
  status: 'completed',
  type: 'sale',
  order_id: `order-${id.slice(4)}`,
  refunded_amount: '0.00',
  refundable_amount: amount,
  voidable_until: null,
  capturable: false,
  ...more,
});
const ITEMS = [
  sale('txn_8d41', 26, '32.00', 'Visa', '4242', { voidable_until: at(27, 2) }),
  sale('txn_7c30', 25, '118.40', 'American Express', '0005', { refunded_amount: '18.40', refundable_amount: '100.00' }),
  sale('txn_6b2f', 25, '7.50', 'ACH', '6789', { status: 'pending', refundable_amount: '0.00' }),
  sale('txn_5a1e', 24, '12.00', 'Mastercard', '4444', { status: 'voided', refundable_amount: '0.00' }),
  sale('txn_490d', 23, '4.50', 'Discover', '1117'),
];
const details = (item: (typeof ITEMS)[number]) => ({
  ...item,
  timeline: [
    { at: item.created_date, what: 'created', amount: item.amount },
    { at: item.created_date, what: 'receipt_sent' },
    ...(Number(item.refunded_amount) > 0 ? [{ at: at(26, 10), what: 'refunded', amount: item.refunded_amount }] : []),
  ],
  refunds:
    Number(item.refunded_amount) > 0
      ? [{ transaction_id: 'txn_re91', amount: item.refunded_amount, created_date: at(26, 10) }]
      : [],
});

const bundle = await buildScriptTag();
const browser = await launchChromium();
try {
  for (const colorScheme of ['light', 'dark'] as const) {
    const page = await browser.newPage({ viewport: { width: 375, height: 720 }, colorScheme, deviceScaleFactor: 1 });
    await page.route(`${ORIGIN}/**`, async (route) => {
      const url = new URL(route.request().url());
      const send = (body: string | Buffer, type: string) =>
        route.fulfill({ status: 200, body, headers: { 'content-type': type } });
      if (url.pathname === '/console.html') {
        return send(
          `<!doctype html><html lang="en" style="color-scheme: ${colorScheme}"><meta name="viewport" content="width=device-width">
          <body style="margin: 8px; font-family: system-ui; background: ${colorScheme === 'dark' ? '#121212' : '#f6f8fa'}">
          <script type="module" src="/paykit.js" data-public-key="pk_demo"></script>
          <transactions-table session-token="wst_demo" base-url="${ORIGIN}" locale="en-US" page-size="5" theme="${colorScheme}"></transactions-table></body></html>`,
          'text/html',
        );
      }
      if (url.pathname === '/paykit.js') return send(bundle.loader.identity, 'text/javascript');
      const file = url.pathname.startsWith('/paykit/') && bundle.files.get(url.pathname.slice('/paykit/'.length));
      if (file) return send(file.identity, 'text/javascript');
      if (url.pathname === '/api/v1/widgets/transactions') {
        return send(
          JSON.stringify({
            result: true,
            message: 'OK',
            data: { items: ITEMS, page: 1, perPage: 5, totalCount: 23, next_cursor: 'txn_490d', has_more: true },
          }),
          'application/json',
        );
      }
      const item = ITEMS.find((row) => url.pathname === `/api/v1/widgets/transactions/${row.transaction_id}`);
      if (item) return send(JSON.stringify({ result: true, message: 'OK', data: details(item) }), 'application/json');
      return route.fulfill({
        status: 404,
        body: '{"result":false,"message":"Not here."}',
        headers: { 'content-type': 'application/json' },
      });
    });
    await page.goto(`${ORIGIN}/console.html`);
    const table = page.locator('transactions-table');
    await table.locator('tr[part="row"]').first().waitFor();
    await table.evaluate((el) => (el as HTMLElement & { updateComplete: Promise<boolean> }).updateComplete);
    await table.screenshot({ path: `${images}console-375-${colorScheme}.png` });
    if (colorScheme === 'light') {
      await table.evaluate(
        (el: HTMLElement & { features?: object }) =>
          (el.features = { refunds: true, voids: true, receipts: true, export: true }),
      );
      await table.locator('tr[part="row"]').nth(1).getByRole('button').click();
      await table.locator('[part="timeline"]').waitFor();
      await table.screenshot({ path: `${images}console-375-details.png` });
    }
    await page.close();
  }
} finally {
  await browser.close();
}
