import { expect, fixture, waitUntil } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import '../../src/index.ts';
import type { TransactionsTable } from '../../src/index.ts';
import type { TransactionItem } from '../../src/widget-api.ts';
import { TIMELINE_STEPS } from '../../server/domain/console.ts';
import { FAKE_BASE, fakeService, json, maybePart, ok, part, shadow, type FakeCall } from './helpers.ts';

/** Issue 44 in the console, as a merchant meets it: a refund's reason, a receipt to where they type, a hold's history, the export. */

const sale: TransactionItem = {
  transaction_id: 'txn_2',
  created_date: '2026-01-02T15:30:00.000Z',
  amount: '20.00',
  net_amount: '19.10',
  card_brand: 'visa',
  last_four: '4242',
  status: 'completed',
  type: 'sale',
  order_id: 'order-2',
  refunded_amount: '0.00',
  refundable_amount: '20.00',
  voidable_until: null,
  capturable: false,
  dispute_id: null,
};
const hold: TransactionItem = {
  ...sale,
  transaction_id: 'txn_1',
  type: 'preauth',
  status: 'voided',
  amount: '60.00',
  refundable_amount: '0.00',
};
const at = (minute: number) => `2026-01-02T15:${String(minute).padStart(2, '0')}:00.000Z`;
/** The hold's history as the service tells it: $80 authorized, raised to $95, cut to $90, $60 captured, $30 released. */
const holdTimeline = [
  { at: at(1), what: 'created', amount: '80.00' },
  { at: at(1), what: 'authorized', amount: '80.00' },
  { at: at(2), what: 'authorized', amount: '95.00' },
  { at: at(3), what: 'authorized', amount: '90.00' },
  { at: at(4), what: 'captured', amount: '60.00' },
  { at: at(4), what: 'released', amount: '30.00' },
];

/** Made by hand, so that the listener is there before the first load ends. */
async function table(attributes: Record<string, string>): Promise<TransactionsTable> {
  const el = document.createElement('transactions-table');
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  el.style.display = 'block';
  return fixture<TransactionsTable>(el);
}
const rows = (el: TransactionsTable) => shadow(el).querySelectorAll('tbody tr[part="row"]').length;
const panel = (el: TransactionsTable) => maybePart(el, 'details')!;
const inPanel = <T extends HTMLElement>(el: TransactionsTable, selector: string) =>
  panel(el).querySelector<T>(selector)!;
const focused = (el: TransactionsTable) => shadow(el).activeElement;
const words = (node: Element) => node.textContent!.replace(/\s+/g, ' ').trim();

/** Opens a row by keyboard: its date (a button), then Enter. */
async function open(el: TransactionsTable, id: string) {
  shadow(el).querySelector<HTMLElement>(`tr[data-transaction-id="${id}"] [part="details-button"]`)!.focus();
  await sendKeys({ press: 'Enter' });
  await waitUntil(() => maybePart(el, 'details')?.querySelector('[part="timeline"]'), `details of ${id}`);
}

describe('<transactions-table>: money actions a merchant can stand behind (#44)', () => {
  let service: ReturnType<typeof fakeService> | undefined;
  let refunds: {
    transaction_id: string;
    amount: string;
    created_date: string;
    reason: string | null;
    reason_note: string | null;
  }[];
  let receipts: string[];
  afterEach(async () => {
    service?.restore();
    service = undefined;
    await setViewport({ width: 800, height: 600 });
  });

  /** The fake service: a sale and a released hold; refunds and receipts change the sale as the service would. */
  function consoleFake(routes: Record<string, (call: FakeCall) => Response> = {}) {
    refunds = [];
    receipts = [];
    let state = { ...sale };
    const details = () => ({
      ...state,
      timeline: [
        { at: at(0), what: 'created', amount: '20.00' },
        ...refunds.map((r) => ({ at: r.created_date, what: 'refunded', amount: r.amount })),
        ...receipts.map((when) => ({ at: when, what: 'receipt_sent' })),
      ],
      refunds,
    });
    return fakeService({
      'GET /transactions': () =>
        ok({
          items: [state, hold],
          page: 1,
          perPage: 20,
          totalCount: 2,
          next_cursor: null,
          has_more: false,
          features: { refunds: true, receipts: true, captures: true, export: true },
        }),
      'GET /transactions/txn_2': () => ok(details()),
      'GET /transactions/txn_1': () => ok({ ...hold, timeline: holdTimeline, refunds: [] }),
      'POST /transactions/txn_2/refund': ({ body }) => {
        const { amount, reason, reason_note } = body as Record<string, string>;
        refunds.push({
          transaction_id: `re_${refunds.length}`,
          amount: amount!,
          created_date: at(10 + refunds.length),
          reason: reason ?? null,
          reason_note: reason_note ?? null,
        });
        const refunded = refunds.reduce((sum, r) => sum + Number(r.amount), 0);
        state = { ...state, refunded_amount: refunded.toFixed(2), refundable_amount: (20 - refunded).toFixed(2) };
        return ok(details());
      },
      'POST /transactions/txn_2/receipt': () => {
        receipts.push(at(30 + receipts.length));
        return ok(details());
      },
      ...routes,
    });
  }
  const posts = () => service!.calls.filter((call) => call.method === 'POST');

  it('asks for a refund’s optional reason in the confirmation, keyboard only, axe-clean at 375 px; "other" needs its note; the refunds list it', async () => {
    service = consoleFake();
    await setViewport({ width: 375, height: 800 });
    const el = await table({ 'session-token': 'wst_fake', 'base-url': FAKE_BASE, locale: 'en-US' });
    await waitUntil(() => rows(el) === 2, 'rows');
    await open(el, 'txn_2');
    await sendKeys({ press: 'Tab' });
    expect(focused(el)).to.equal(inPanel(el, '[part="amount-input"]'));
    await sendKeys({ type: '2' });
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => maybePart(el, 'confirm'), 'the question');
    // Still exactly what will happen; the reason is asked beside it, none by default.
    expect(words(part(el, 'confirm').querySelector('p')!)).to.equal('Refund $2.00 of $20.00 to Visa •••• 4242?');
    const select = () => part<HTMLSelectElement>(el, 'reason-select');
    expect(select().value).to.equal('');
    expect([...select().options].map((o) => o.textContent)).to.deep.equal([
      'None given',
      'Requested by the customer',
      'Duplicate',
      'Fraudulent',
      'Other',
    ]);
    await sendKeys({ press: 'Tab' });
    expect(focused(el)).to.equal(select());
    await sendKeys({ press: 'ArrowDown' });
    await sendKeys({ press: 'ArrowDown' });
    await el.updateComplete;
    expect(select().value).to.equal('duplicate');
    expect(maybePart(el, 'reason-note'), 'a note only for "other"').to.equal(null);
    const { right } = part(el, 'confirm').getBoundingClientRect();
    expect(right, 'the question fits the phone').to.be.at.most(375);
    expect(document.documentElement.scrollWidth, 'no sideways scroll').to.be.at.most(375);
    await expect(el).to.be.accessible();
    await sendKeys({ press: 'Tab' });
    expect(focused(el)).to.equal(part(el, 'confirm-button'));
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => maybePart(el, 'row-status')?.textContent === 'Done: Refund.', 'the refund');
    expect(posts().map((call) => call.body)).to.deep.equal([{ amount: '2.00', reason: 'duplicate' }]);
    await waitUntil(() => maybePart(el, 'refunds'), 'the refunds');
    expect(words(part(el, 'refunds'))).to.match(/ · \$2\.00 · re_0 · Duplicate$/);

    // "Other": its note appears and is needed; without it nothing is sent and the note takes focus.
    inPanel<HTMLInputElement>(el, '[part="amount-input"]').focus();
    await sendKeys({ type: '1' });
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => maybePart(el, 'confirm'), 'the second question');
    await sendKeys({ press: 'Tab' });
    for (let i = 0; i < 4; i++) await sendKeys({ press: 'ArrowDown' });
    await el.updateComplete;
    expect(select().value).to.equal('other');
    await waitUntil(() => maybePart(el, 'reason-note'), 'the note');
    await sendKeys({ press: 'Tab' });
    expect(focused(el), 'the note comes before yes').to.equal(part(el, 'reason-note'));
    await sendKeys({ press: 'Tab' });
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => focused(el) === maybePart(el, 'reason-note'), 'the note asked for');
    expect(part(el, 'row-error').textContent).to.equal('Say in a few words why you refund, or choose another reason.');
    expect(part(el, 'reason-note').getAttribute('aria-invalid')).to.equal('true');
    expect(posts().length, 'nothing sent without the note').to.equal(1);
    await expect(el).to.be.accessible();
    await sendKeys({ type: 'Wrong size sent' });
    await sendKeys({ press: 'Tab' });
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => posts().length === 2, 'the second refund');
    expect(posts()[1]!.body).to.deep.equal({ amount: '1.00', reason: 'other', reason_note: 'Wrong size sent' });
    await waitUntil(() => words(part(el, 'refunds')).endsWith('Other: Wrong size sent'), 'listed with its note');

    // A refund without a reason sends none, and lists none.
    inPanel<HTMLInputElement>(el, '[part="amount-input"]').focus();
    await sendKeys({ type: '1' });
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => maybePart(el, 'confirm'), 'the third question');
    part(el, 'confirm-button').click();
    await waitUntil(() => posts().length === 3, 'the third refund');
    expect(posts()[2]!.body).to.deep.equal({ amount: '1.00' });
    await waitUntil(() => part(el, 'refunds').querySelectorAll('li').length === 3, 'three refunds');
    expect(words(part(el, 'refunds').querySelectorAll('li')[2]!)).to.match(/ · \$1\.00 · re_2$/);
  });

  it('sends a receipt to an e-mail or phone typed, the service’s refusal beside the field, its limit in the merchant’s words, each in the timeline', async () => {
    const sent = () => panel(el).querySelectorAll('[part="timeline"] li').length;
    let refuse: Response | undefined;
    service = consoleFake({
      'POST /transactions/txn_2/receipt': () => {
        if (refuse) return refuse;
        receipts.push(at(30 + receipts.length));
        return ok({ ...sale, timeline: receipts.map((when) => ({ at: when, what: 'receipt_sent' })), refunds: [] });
      },
    });
    const el = await table({ 'session-token': 'wst_fake', 'base-url': FAKE_BASE, locale: 'en-US' });
    await waitUntil(() => rows(el) === 2, 'rows');
    await open(el, 'txn_2');
    const field = () => inPanel<HTMLInputElement>(el, '[part="receipt-input"]');
    expect(words(field().closest('label')!)).to.equal("Send to an e-mail or phone (empty: the shopper's own)");

    // Typed by keyboard: from the receipt field, Enter sends.
    refuse = json(400, {
      result: false,
      code: 'invalid_request',
      message: 'email "front.desk@" is not an e-mail address: send one such as name@example.com.',
    });
    field().focus();
    await sendKeys({ type: 'front.desk@' });
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => maybePart(el, 'receipt-error')?.textContent, 'the refusal beside the field');
    expect(posts().at(-1)!.body).to.deep.equal({ email: 'front.desk@' });
    expect(part(el, 'receipt-error').textContent).to.equal(
      'email "front.desk@" is not an e-mail address: send one such as name@example.com.',
    );
    expect(field().getAttribute('aria-invalid')).to.equal('true');
    expect(field().getAttribute('aria-describedby')).to.equal(part(el, 'receipt-error').id);
    expect(field().value, 'kept to be corrected').to.equal('front.desk@');
    expect(part(el, 'row-error').textContent).to.equal('');
    await expect(el).to.be.accessible();

    refuse = undefined;
    field().focus();
    await sendKeys({ type: 'example.com' });
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => maybePart(el, 'row-status')?.textContent === 'Done: Resend receipt.', 'sent');
    expect(posts().at(-1)!.body).to.deep.equal({ email: 'front.desk@example.com' });
    expect(field().value, 'emptied once sent').to.equal('');
    expect(field().getAttribute('aria-invalid')).to.equal('false');
    expect(part(el, 'receipt-error').textContent).to.equal('');
    expect(sent()).to.equal(1);
    expect(words(part(el, 'timeline'))).to.contain('Receipt sent');

    field().focus();
    await sendKeys({ type: ' (415) 555-0134 ' });
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => sent() === 2, 'the second receipt in the timeline');
    expect(posts().at(-1)!.body).to.deep.equal({ phone: '(415) 555-0134' });

    // Empty: to the shopper's own address, as before.
    inPanel<HTMLButtonElement>(el, '[data-action="receipt"]').click();
    await waitUntil(() => sent() === 3, 'the third receipt');
    expect(posts().at(-1)!.body).to.deep.equal({});

    // The service's bound: said so, with when to try again, not the developer's sentence.
    refuse = json(
      429,
      {
        result: false,
        code: 'rate_limited',
        message:
          'This transaction already had the 3 receipts an hour it may have: it can be sent again in 1500 seconds.',
      },
      { 'retry-after': '1500' },
    );
    let detail: { message: string; developerMessage?: string } | undefined;
    el.addEventListener('transactions-error', (event) => (detail = (event as CustomEvent).detail));
    field().focus();
    await sendKeys({ type: 'other@example.com' });
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => maybePart(el, 'row-error')?.textContent, 'the refusal');
    expect(part(el, 'row-error').textContent).to.equal(
      'This receipt was sent as often as an hour allows. Try again in 25 min.',
    );
    expect(detail!.developerMessage).to.match(/already had the 3 receipts/);
    expect(field().value, 'kept for later').to.equal('other@example.com');
    expect(sent()).to.equal(3);
    await expect(el).to.be.accessible();
  });

  it('tells a hold’s history: authorized, each raise and cut, captured and released, in each language', async () => {
    service = consoleFake();
    const expected: Record<string, string[]> = {
      'en-US': ['Created', 'Authorized', 'Hold raised', 'Hold lowered', 'Captured', 'Released'],
      'de-DE': ['Erstellt', 'Autorisiert', 'Reservierung erhöht', 'Reservierung gesenkt', 'Eingezogen', 'Freigegeben'],
      'fr-FR': ['Créée', 'Autorisée', 'Pré-autorisation augmentée', 'Pré-autorisation réduite', 'Encaissée', 'Libérée'],
      'es-ES': ['Creada', 'Autorizada', 'Retención aumentada', 'Retención reducida', 'Capturada', 'Liberada'],
    };
    for (const [locale, labels] of Object.entries(expected)) {
      const el = await table({ 'session-token': 'wst_fake', 'base-url': FAKE_BASE, locale });
      await waitUntil(() => rows(el) === 2, `rows (${locale})`);
      await open(el, 'txn_1');
      const steps = [...part(el, 'timeline').querySelectorAll('li')].map((li) =>
        words(li).replace(li.querySelector('time')!.textContent!, '').trim(),
      );
      const amounts = ['80.00', '80.00', '95.00', '90.00', '60.00', '30.00'].map((amount) =>
        new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' })
          .format(Number(amount))
          .replace(/\s/g, ' '),
      );
      expect(steps, locale).to.deep.equal(labels.map((label, i) => `${label} · ${amounts[i]}`));
      await expect(el).to.be.accessible();
    }
  });

  it('has a label for every step of the service’s timeline in each language, never the raw word', async () => {
    service = consoleFake({
      'GET /transactions/txn_2': () =>
        ok({
          ...sale,
          timeline: TIMELINE_STEPS.map((what, i) => ({ at: at(i), what })),
          refunds: [],
        }),
    });
    for (const locale of ['en-US', 'de-DE', 'fr-FR', 'es-ES']) {
      const el = await table({ 'session-token': 'wst_fake', 'base-url': FAKE_BASE, locale });
      await waitUntil(() => rows(el) === 2, `rows (${locale})`);
      await open(el, 'txn_2');
      const steps = [...part(el, 'timeline').querySelectorAll('li')].map((li) =>
        words(li).replace(li.querySelector('time')!.textContent!, '').trim(),
      );
      expect(steps.length).to.equal(TIMELINE_STEPS.length);
      for (const step of steps) expect(step, locale).to.not.match(/^[a-z_]+$/);
      expect(new Set(steps).size, `${locale}: each step its own words`).to.be.at.least(TIMELINE_STEPS.length - 1);
    }
  });

  it('exports what the controls show, before Apply: the search, filters and dates typed, applied to the table too', async () => {
    let csvCall: FakeCall | undefined;
    const listings: FakeCall[] = [];
    service = consoleFake({
      'GET /transactions': (call) => {
        listings.push(call);
        return ok({
          items: [sale],
          page: 1,
          perPage: 20,
          totalCount: 1,
          next_cursor: null,
          has_more: false,
          features: { export: true },
        });
      },
      'GET /transactions/export.csv': (call) => {
        csvCall = call;
        return new Response('Date,Amount\r\n', {
          headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="t.csv"' },
        });
      },
    });
    const el = await table({ 'session-token': 'wst_fake', 'base-url': FAKE_BASE, locale: 'en-US' });
    await waitUntil(() => maybePart(el, 'export-button'), 'the export button');
    const names: string[] = [];
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      names.push(this.download);
    };
    const changes: unknown[] = [];
    el.addEventListener('transactions-filter-change', (event) => changes.push((event as CustomEvent).detail));
    try {
      // Typed and chosen, not applied.
      part<HTMLInputElement>(el, 'search-input').focus();
      await sendKeys({ type: 'order-2' });
      const [status] = shadow(el).querySelectorAll<HTMLSelectElement>('[part="filter-select"]');
      status!.focus();
      await sendKeys({ press: 'ArrowDown' });
      const [from, to] = shadow(el).querySelectorAll<HTMLInputElement>('[part="date-input"]');
      from!.value = '2026-01-01';
      to!.value = '2026-01-31';
      // A reversed range exports nothing and says why.
      from!.value = '2026-02-01';
      part(el, 'export-button').focus();
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => shadow(el).getElementById('range-error')!.textContent, 'the reversed range');
      expect(shadow(el).getElementById('range-error')!.textContent).to.equal('The "from" date is after the "to" date.');
      expect(csvCall, 'no export of a range that is none').to.equal(undefined);
      from!.value = '2026-01-01';
      part(el, 'export-button').focus();
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => names.length === 1, 'the download');
    } finally {
      HTMLAnchorElement.prototype.click = click;
    }
    const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const query = { q: 'order-2', status: 'completed', from_date: '2026-01-01', to_date: '2026-01-31' };
    expect(Object.fromEntries(csvCall!.url.searchParams)).to.deep.equal({ ...query, lang: 'en', tz });
    // The table shows the same set: the controls were applied, as Apply would have.
    await waitUntil(() => listings.at(-1)!.url.searchParams.get('q') === 'order-2', 'the table applies them');
    expect(Object.fromEntries(listings.at(-1)!.url.searchParams)).to.deep.include(query);
    expect(el.getAttribute('q')).to.equal('order-2');
    expect(changes.length).to.equal(1);
    // Enter in the search still applies without exporting.
    part<HTMLInputElement>(el, 'search-input').focus();
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => changes.length === 2, 'applied again');
    expect(names.length, 'Enter applies, it does not export').to.equal(1);
  });
});
