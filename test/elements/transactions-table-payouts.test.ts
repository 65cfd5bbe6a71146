import { expect, fixture, waitUntil } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import '../../src/index.ts';
import {
  consoleService,
  consoleTable,
  json,
  loadedModules,
  maybePart,
  MODULE,
  ok,
  part,
  realService,
  shadow,
  type FakeCall,
} from './helpers.ts';

/** The console's payouts (#45): `<transactions-table>` with a session that grants `payouts`. */
const sale = {
  transaction_id: 'txn_1',
  created_date: '2026-03-10T15:35:15.539Z',
  amount: '25.00',
  net_amount: '23.97',
  card_brand: 'visa',
  last_four: '4242',
  status: 'completed',
  type: 'sale',
  order_id: 'order-1042',
  refunded_amount: '0.00',
  refundable_amount: '25.00',
  voidable_until: null,
  capturable: false,
};
const payout = (n: number, fields: object = {}) => ({
  payout_id: `po_${n}`,
  amount: '18.97',
  currency: 'USD',
  status: 'paid',
  period: '2026-03-16',
  arrival_date: '2026-03-17',
  bank_last_four: '6789',
  entry_count: 3,
  created_date: `2026-03-${String(n).padStart(2, '0')}T00:00:42.118Z`,
  failure_code: null,
  failure_message: null,
  ...fields,
});
const entry = (type: string, net: string) => ({
  type,
  gross: type === 'fee' ? '0.00' : net,
  fee: type === 'fee' ? net.replace('-', '') : '0.00',
  net,
  transaction_id: 'txn_1',
  order_id: 'order-1042',
  created_date: '2026-03-10T15:35:15.539Z',
  available_on: '2026-03-16',
  payout_id: 'po_16',
});

function payoutsService(routes: Record<string, (call: FakeCall) => Response> = {}) {
  return consoleService(sale, {
    'GET /payouts': () =>
      ok({
        balance: { currency: 'USD', available: '12.40', pending: '230.05' },
        items: [
          payout(16),
          payout(13, { status: 'failed', amount: '96.80', failure_message: 'The bank account ending 1116 is closed.' }),
        ],
        next_cursor: null,
        has_more: false,
      }),
    'GET /transactions/txn_1': () =>
      ok({
        ...sale,
        timeline: [{ at: sale.created_date, what: 'created', amount: '25.00' }],
        refunds: [],
        money: { fee_amount: '1.03', payout: null },
      }),
    'GET /payouts/po_16/entries': () =>
      ok({
        items: [entry('refund', '-5.00'), entry('fee', '-1.03'), entry('sale', '25.00')],
        next_cursor: null,
        has_more: false,
      }),
    ...routes,
  });
}

describe('<transactions-table> payouts', function () {
  this.timeout(30000);
  let service: ReturnType<typeof consoleService> | undefined;
  afterEach(() => {
    service?.restore();
    service = undefined;
  });

  it('shows none and loads no payouts module when the session does not grant them', async () => {
    service = payoutsService();
    const el = await consoleTable({ export: true, refunds: true });
    await waitUntil(() => el.matches(':state(loaded)'), 'the listing');
    // The console's module is what would import the view: opening a row loads it.
    shadow(el).querySelector<HTMLElement>('tr[part="row"] [part="details-button"]')!.click();
    await waitUntil(() => maybePart(el, 'timeline'), 'the details', MODULE);
    // A sale's details say what the fee was and whether its money went out yet.
    expect(part(el, 'details').textContent!.replace(/\s+/g, ' '))
      .to.contain('Fee$1.03')
      .and.contain('PayoutNot paid out yet');
    expect(maybePart(el, 'payouts-button')).to.equal(null);
    expect(loadedModules('payouts-view'), 'the payouts view was not fetched').to.deep.equal([]);
    expect(service.calls.some((call) => call.url.pathname.includes('/payouts'))).to.equal(false);
  });

  for (const width of [1280, 375]) {
    it(`at ${width} px, keyboard only: the balance, a payout opened into its entries, their CSV, Escape; axe-clean`, async () => {
      await setViewport({ width, height: 900 });
      let csv: FakeCall | undefined;
      service = payoutsService({
        'GET /payouts/po_16/entries.csv': (call) => {
          csv = call;
          return new Response('Type,Gross\r\n', {
            headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="payout-po_16.csv"' },
          });
        },
      });
      const names: string[] = [];
      const click = HTMLAnchorElement.prototype.click;
      HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
        names.push(this.download);
      };
      try {
        const el = await consoleTable({ payouts: true });
        await waitUntil(() => maybePart(el, 'payouts-button'), 'the payouts toggle, once its module arrived', MODULE);
        expect(loadedModules('payouts-view').length, 'the view came as a module of its own').to.be.greaterThan(0);
        const toggle = part(el, 'payouts-button');
        expect(toggle.getAttribute('aria-expanded')).to.equal('false');
        toggle.focus();
        await sendKeys({ press: 'Enter' });
        await waitUntil(() => maybePart(el, 'balance'), 'the balance');
        expect(toggle.getAttribute('aria-expanded')).to.equal('true');
        expect(part(el, 'balance').textContent!.replace(/\s+/g, ' '))
          .to.contain('Available$12.40')
          .and.contain('Pending$230.05');
        const rows = Array.from(shadow(el).querySelectorAll('[part="payout-row"]')).map((row) =>
          row.textContent!.replace(/\s+/g, ' ').trim(),
        );
        expect(rows[0]).to.contain('$18.97').and.contain('Paid').and.contain('2026-03-17');
        expect(rows[1]).to.contain('$96.80').and.contain('Failed').and.contain('ending 1116 is closed');
        await expect(el).to.be.accessible();

        // Tab: the scrolling region, then the first payout's button; Enter opens its entries.
        await sendKeys({ press: 'Tab' });
        await sendKeys({ press: 'Tab' });
        const first = shadow(el).querySelector<HTMLButtonElement>('[part~="payout-button"]')!;
        expect(shadow(el).activeElement).to.equal(first);
        await sendKeys({ press: 'Enter' });
        await waitUntil(() => maybePart(el, 'entries'), 'the entries');
        expect(first.getAttribute('aria-expanded')).to.equal('true');
        const lines = Array.from(part(el, 'entries').querySelectorAll('li')).map((li) =>
          li.textContent!.replace(/\s+/g, ' ').trim(),
        );
        expect(lines).to.deep.equal([
          'Refund · -$5.00 · order-1042',
          'Fee · -$1.03 · order-1042',
          'Sale · $25.00 · order-1042',
        ]);
        await expect(el).to.be.accessible();
        await sendKeys({ press: 'Tab' });
        expect(shadow(el).activeElement).to.equal(maybePart(el, 'csv-button'));
        await sendKeys({ press: 'Enter' });
        await waitUntil(() => names.length === 1, 'the download');
        expect(names).to.deep.equal(['payout-po_16.csv']);
        expect(csv!.headers.get('authorization')).to.equal('Bearer wst_fake');
        expect(csv!.url.searchParams.get('lang')).to.equal('en');
        await sendKeys({ press: 'Escape' });
        await waitUntil(() => !maybePart(el, 'entries'), 'closed');
        expect(shadow(el).activeElement).to.equal(first);
        expect(document.documentElement.scrollWidth, 'no sideways scroll').to.be.at.most(
          document.documentElement.clientWidth,
        );
        await expect(el).to.be.accessible();
      } finally {
        HTMLAnchorElement.prototype.click = click;
        await setViewport({ width: 800, height: 600 });
      }
    });
  }

  it('says why the payouts cannot be read, in German, in their alert', async () => {
    service = payoutsService({
      'GET /payouts': () =>
        json(403, {
          result: false,
          code: 'forbidden',
          message: 'Dieses Sitzungstoken erlaubt es nicht: features.payouts.',
        }),
    });
    const el = await consoleTable({ payouts: true }, 'de-DE');
    await waitUntil(
      () => maybePart(el, 'payouts-button')?.textContent === 'Guthaben und Auszahlungen',
      'the toggle, in German',
      MODULE,
    );
    part(el, 'payouts-button').click();
    const alert = () => shadow(el).querySelector('#payouts-panel [role="alert"]');
    await waitUntil(() => alert()?.textContent, 'the refusal');
    expect(alert()!.textContent).to.equal('Dieses Sitzungstoken erlaubt es nicht: features.payouts.');
    await expect(el).to.be.accessible();
  });

  it('with the service: the payout and its entries, which add up to it', async function () {
    const { baseUrl, payoutsSessionToken } = realService(this);
    expect(payoutsSessionToken, 'the browser tests’ service pays a merchant out').to.be.a('string');
    const el = document.createElement('transactions-table');
    el.setAttribute('session-token', payoutsSessionToken!);
    el.setAttribute('base-url', baseUrl);
    el.setAttribute('locale', 'en-US');
    await fixture(el);
    await waitUntil(() => maybePart(el, 'payouts-button'), 'the toggle', { timeout: 8000 });
    part(el, 'payouts-button').click();
    await waitUntil(() => shadow(el).querySelector('[part~="payout-button"]'), 'the payout', { timeout: 8000 });
    // 80.00 and 45.50 by ACH, less 0.64 and 0.36 in fees.
    expect(shadow(el).querySelector('[part="payout-row"]')!.textContent).to.contain('$124.50');
    shadow(el).querySelector<HTMLButtonElement>('[part~="payout-button"]')!.click();
    await waitUntil(() => maybePart(el, 'entries')?.querySelectorAll('li').length === 4, 'its four entries', {
      timeout: 8000,
    });
    await expect(el).to.be.accessible();
  });
});
