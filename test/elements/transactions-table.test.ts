import { expect, fixture, waitUntil } from '@open-wc/testing';
import { emulateMedia, sendKeys, setViewport } from '@web/test-runner-commands';
import '../../src/index.ts';
import type { TransactionsTable } from '../../src/index.ts';
import type { ConsoleFeatures, TransactionItem } from '../../src/widget-api.ts';
import {
  eventWithin,
  FAKE_BASE,
  fakeService,
  json,
  maybePart,
  ok,
  pageStyle,
  part,
  realService,
  shadow,
  type FakeCall,
  type FakeRoute,
  type PaykitTestService,
} from './helpers.ts';

function item(n: number, overrides: Partial<TransactionItem> = {}): TransactionItem {
  return {
    transaction_id: `txn_${n}`,
    created_date: new Date(Date.UTC(2026, 0, n, 15, 30)).toISOString(),
    amount: `${n}.50`,
    net_amount: `${n}.20`,
    card_brand: 'visa',
    last_four: '4242',
    status: 'completed',
    type: 'sale',
    order_id: `order-${n}`,
    refunded_amount: '0.00',
    refundable_amount: `${n}.50`,
    voidable_until: null,
    capturable: false,
    dispute_id: null,
    ...overrides,
  };
}

/**
 * A listing of `total` transactions, `perPage` at a time, as the service pages them: by page number, or after the
 * row a cursor names (here, the row's id), which wins over the page number.
 */
function listing(total: number) {
  return (call: FakeCall) => {
    const page = Number(call.url.searchParams.get('page'));
    const perPage = Number(call.url.searchParams.get('perPage'));
    const cursor = call.url.searchParams.get('cursor');
    const all = Array.from({ length: total }, (_, i) => item(total - i));
    const start = cursor ? all.findIndex((t) => t.transaction_id === cursor) + 1 : (page - 1) * perPage;
    const items = all.slice(start, start + perPage);
    const has_more = start + perPage < total;
    return ok({
      items,
      page,
      perPage,
      totalCount: total,
      next_cursor: has_more ? items.at(-1)!.transaction_id : null,
      has_more,
    });
  };
}

/** The rows' cells as they are shown (`heard`: as a screen reader says them, an image by its label). */
function rows(el: TransactionsTable, heard = false): string[][] {
  return Array.from(shadow(el).querySelectorAll('tbody tr[part="row"]')).map((row) =>
    Array.from(row.querySelectorAll('td')).map((cell) => {
      const text = cell.cloneNode(true) as Element;
      if (heard)
        text.querySelectorAll('[role="img"]').forEach((node) => node.replaceWith(node.getAttribute('aria-label')!));
      return text.textContent!.replace(/\s+/g, ' ').trim();
    }),
  );
}

/** Made by hand, so a listener is in place before the first load can end. */
async function table(
  attributes: Record<string, string>,
  setup?: (el: TransactionsTable) => void,
): Promise<TransactionsTable> {
  const el = document.createElement('transactions-table');
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  setup?.(el);
  return fixture<TransactionsTable>(el);
}

describe('<transactions-table> without the service', () => {
  let service: ReturnType<typeof fakeService> | undefined;
  afterEach(() => {
    service?.restore();
    service = undefined;
  });

  it('lists date, amount, card and status, newest first, and is accessible', async () => {
    service = fakeService({
      'GET /transactions': () =>
        ok({
          items: [
            item(3),
            item(5, { type: 'refund' }),
            item(4, { card_brand: 'mastercard', last_four: '4444', status: 'voided' }),
          ],
          page: 1,
          perPage: 20,
          totalCount: 3,
        }),
    });
    let total: number | undefined;
    const el = await table({ 'session-token': 'wst_fake', 'base-url': FAKE_BASE, locale: 'en-US' }, (t) =>
      t.addEventListener('transactions-load', (event) => (total = event.detail.total)),
    );
    await waitUntil(() => total !== undefined, 'transactions-load');
    expect(total).to.equal(3);
    const call = service.calls[0]!;
    expect(call.url.pathname).to.equal('/api/v1/widgets/transactions');
    expect(call.headers.get('authorization')).to.equal('Bearer wst_fake');
    expect(call.url.searchParams.get('page')).to.equal('1');
    expect(call.url.searchParams.get('perPage')).to.equal('20');

    const headers = Array.from(shadow(el).querySelectorAll('th')).map((th) => th.textContent!.trim());
    expect(headers).to.deep.equal(['Date', 'Amount', 'Card', 'Status']);
    const cells = rows(el);
    expect(cells.map((row) => row[1])).to.deep.equal(['$5.50', '$4.50', '$3.50']);
    expect(cells[0]![0]).to.match(/^Jan 5, 2026/);
    expect(cells[0]![2]).to.equal('Visa •••• 4242');
    expect(cells[1]![2]).to.equal('Mastercard •••• 4444');
    // Style and layout grow with a row's elements (bench: 1,000 rows against a plain lit-html table of five a row).
    expect(
      shadow(el).querySelectorAll('tbody tr[part="row"]:first-child, tbody tr[part="row"]:first-child *'),
    ).to.have.length(7);
    expect(rows(el, true).map((row) => row[2])).to.deep.equal([
      'Visa ending in 4242',
      'Mastercard ending in 4444',
      'Visa ending in 4242',
    ]);
    expect(cells.map((row) => row[3])).to.deep.equal(['Refund · Completed', 'Voided', 'Completed']);
    expect(part(el, 'status').textContent).to.equal('Showing 1–3 of 3 transactions.');
    expect(part(el, 'page-status').textContent).to.equal('Page 1 of 1');
    expect(el.matches(':state(loaded)')).to.equal(true);
    await expect(el).to.be.accessible();

    el.locale = 'de-DE';
    await el.updateComplete;
    expect(rows(el)[0]![1]!.replace(/\s/g, ' ')).to.equal('5,50 $');
  });

  it('shows a payment without a card number as its brand or a dash, to the eye and to a screen reader', async () => {
    service = fakeService({
      'GET /transactions': () =>
        ok({
          items: [item(2, { last_four: '' }), item(1, { card_brand: '', last_four: '' })],
          page: 1,
          perPage: 20,
          totalCount: 2,
        }),
    });
    const el = await table({ 'session-token': 'wst_fake', 'base-url': FAKE_BASE, locale: 'en-US' });
    await waitUntil(() => rows(el).length === 2, 'rows');
    expect(rows(el).map((row) => row[2])).to.deep.equal(['Visa', '—']);
    expect(rows(el, true).map((row) => row[2])).to.deep.equal(['Visa', '—']);
    // Only a masked number is an image, said by its label.
    expect(
      shadow(el).querySelectorAll('tbody td:nth-child(3) :is([role="img"], [aria-label]:not([aria-label=""]))'),
    ).to.have.length(0);
    await expect(el).to.be.accessible();
  });

  it('shows loading, then the empty state, both accessible', async () => {
    let answer: (response: Response) => void = () => {};
    service = fakeService({ 'GET /transactions': () => new Promise<Response>((resolve) => (answer = resolve)) });
    const el = await table({ 'session-token': 'wst_fake', 'base-url': FAKE_BASE });
    expect(part(el, 'status').textContent).to.equal('Loading transactions…');
    expect(part(el, 'status').getAttribute('aria-live')).to.equal('polite');
    expect(el.matches(':state(loading)')).to.equal(true);
    await expect(el).to.be.accessible();

    const loaded = eventWithin<CustomEvent>(el, 'transactions-load');
    answer(ok({ items: [], page: 1, perPage: 20, totalCount: 0 }));
    expect((await loaded).detail).to.deep.equal({ total: 0 });
    await el.updateComplete;
    expect(part(el, 'empty').textContent).to.equal('No transactions yet');
    expect(maybePart(el, 'table')).to.equal(null);
    expect(maybePart(el, 'pagination')).to.equal(null);
    expect(el.matches(':state(empty)')).to.equal(true);
    await expect(el).to.be.accessible();
  });

  it('pages with previous and next, by keyboard, from the service’s totalCount', async () => {
    service = fakeService({ 'GET /transactions': listing(5) });
    const el = await table({ 'session-token': 'wst_fake', 'base-url': FAKE_BASE, 'page-size': '2' });
    await waitUntil(() => rows(el).length === 2, 'first page');
    expect(part(el, 'page-status').textContent).to.equal('Page 1 of 3');
    expect(part(el, 'previous-button').getAttribute('aria-disabled')).to.equal('true');
    expect(part(el, 'next-button').getAttribute('aria-disabled')).to.equal('false');

    part(el, 'next-button').focus();
    const second = eventWithin(el, 'transactions-load');
    await sendKeys({ press: 'Enter' });
    await second;
    await el.updateComplete;
    expect(service.calls.at(-1)!.url.searchParams.get('page')).to.equal('2');
    expect(service.calls.at(-1)!.url.searchParams.get('cursor'), 'the next page after the last row shown').to.equal(
      'txn_4',
    );
    expect(part(el, 'page-status').textContent).to.equal('Page 2 of 3');
    expect(part(el, 'status').textContent).to.equal('Showing 3–4 of 5 transactions.');
    expect(shadow(el).activeElement).to.equal(part(el, 'next-button'));

    const third = eventWithin(el, 'transactions-load');
    await sendKeys({ press: 'Space' });
    await third;
    await el.updateComplete;
    expect(rows(el)).to.have.length(1);
    expect(part(el, 'next-button').getAttribute('aria-disabled')).to.equal('true');
    const calls = service.calls.length;
    part(el, 'next-button').click();
    expect(service.calls.length, 'no page past the last').to.equal(calls);

    const back = eventWithin(el, 'transactions-load');
    part(el, 'previous-button').click();
    await back;
    await el.updateComplete;
    expect(part(el, 'page-status').textContent).to.equal('Page 2 of 3');
    expect(service.calls.at(-1)!.url.searchParams.get('cursor'), 'back to the same place').to.equal('txn_4');
    expect(rows(el)).to.have.length(2);
    await expect(el).to.be.accessible();
  });

  it('filters by a date range, refusing one that ends before it starts', async () => {
    service = fakeService({ 'GET /transactions': listing(1) });
    const el = await table({ 'session-token': 'wst_fake', 'base-url': FAKE_BASE });
    await waitUntil(() => rows(el).length === 1);
    const [from, to] = Array.from(shadow(el).querySelectorAll<HTMLInputElement>('input[type="date"]'));
    expect(from!.labels![0]!.textContent!.trim()).to.equal('From');
    expect(to!.labels![0]!.textContent!.trim()).to.equal('To');

    from!.value = '2026-02-10';
    to!.value = '2026-02-01';
    part(el, 'apply-button').click();
    await el.updateComplete;
    expect(shadow(el).querySelector('#range-error')!.textContent).to.match(/after the "to" date/);
    expect(from!.getAttribute('aria-invalid')).to.equal('true');
    expect(service.calls).to.have.length(1);
    await expect(el).to.be.accessible();

    to!.value = '2026-02-28';
    const filtered = eventWithin(el, 'transactions-load');
    part(el, 'apply-button').click();
    await filtered;
    const query = service.calls.at(-1)!.url.searchParams;
    expect([query.get('from_date'), query.get('to_date'), query.get('page')]).to.deep.equal([
      '2026-02-10',
      '2026-02-28',
      '1',
    ]);
    await el.updateComplete;
    expect(from!.getAttribute('aria-invalid')).to.equal('false');

    const cleared = eventWithin(el, 'transactions-load');
    part(el, 'clear-button').click();
    await cleared;
    expect(service.calls.at(-1)!.url.searchParams.has('from_date')).to.equal(false);
    expect(from!.value).to.equal('');
  });

  it('keeps page-size within 1–100', async () => {
    service = fakeService({ 'GET /transactions': listing(0) });
    const el = await table({ 'session-token': 'wst_fake', 'base-url': FAKE_BASE, 'page-size': '500' });
    await waitUntil(() => service!.calls.length === 1);
    expect(service.calls[0]!.url.searchParams.get('perPage')).to.equal('100');
    el.pageSize = 7;
    await waitUntil(() => service!.calls.length === 2);
    expect(service.calls[1]!.url.searchParams.get('perPage')).to.equal('7');
  });

  it('shows an error with a retry, accessible, when the token is refused and cannot be renewed', async () => {
    service = fakeService({
      'GET /transactions': () =>
        json(401, {
          result: false,
          message: 'The session token is missing, expired or not valid: ask your server for a new one.',
        }),
    });
    let message: string | undefined;
    let crossesShadowRoots = false;
    const el = await table({ 'session-token': 'wst_old', 'base-url': FAKE_BASE }, (t) =>
      t.addEventListener('transactions-error', (event) => {
        message = event.detail.message;
        crossesShadowRoots = event.bubbles && event.composed;
      }),
    );
    await waitUntil(() => message, 'transactions-error');
    expect(message).to.match(/session token is missing, expired or not valid/);
    expect(crossesShadowRoots, 'transactions-error bubbles and is composed').to.equal(true);
    await el.updateComplete;
    expect(part(el, 'error').getAttribute('role')).to.equal('alert');
    expect(part(el, 'error').textContent).to.equal(message);
    expect(el.matches(':state(error)')).to.equal(true);
    await expect(el).to.be.accessible();

    service.restore();
    service = fakeService({ 'GET /transactions': listing(2) });
    const loaded = eventWithin(el, 'transactions-load');
    part(el, 'retry-button').click();
    await loaded;
  });

  it('asks fetchSessionToken for a token when it has none, and reports a missing one', async () => {
    service = fakeService({ 'GET /transactions': listing(1) });
    let asked = 0;
    const el = await table({ 'base-url': FAKE_BASE }, (t) => {
      t.fetchSessionToken = async () => {
        asked++;
        return 'wst_fresh';
      };
    });
    await waitUntil(() => rows(el).length === 1);
    expect(asked).to.equal(1);
    expect(service.calls[0]!.headers.get('authorization')).to.equal('Bearer wst_fresh');

    let message: string | undefined;
    await table({ 'base-url': FAKE_BASE }, (t) =>
      t.addEventListener('transactions-error', (event) => (message = event.detail.message)),
    );
    await waitUntil(() => message);
    expect(message).to.match(/No session token/);
  });

  it('reports an unreachable service and a missing service address', async () => {
    let message: string | undefined;
    await table({ 'session-token': 'wst_x', 'base-url': 'http://127.0.0.1:9' }, (t) =>
      t.addEventListener('transactions-error', (event) => (message = event.detail.message)),
    );
    await waitUntil(() => message);
    expect(message).to.match(/Could not reach the payment service/);

    message = undefined;
    await table({ 'session-token': 'wst_x' }, (t) =>
      t.addEventListener('transactions-error', (event) => (message = event.detail.message)),
    );
    await waitUntil(() => message);
    expect(message).to.match(/no service address/);
  });

  it('lets strings replace every text and themes through --paykit-* properties, ::part() and dark mode', async () => {
    service = fakeService({ 'GET /transactions': listing(0) });
    const remove = pageStyle(`transactions-table.themed { --paykit-surface-color: rgb(250, 240, 230); }
      transactions-table.themed::part(empty) { font-weight: 700; }`);
    try {
      const el = await table({ class: 'themed', 'session-token': 'wst_x', 'base-url': FAKE_BASE }, (t) => {
        t.strings = { empty: 'Noch keine Umsätze', apply: 'Anwenden' };
      });
      await waitUntil(() => maybePart(el, 'empty'));
      expect(part(el, 'empty').textContent).to.equal('Noch keine Umsätze');
      expect(part(el, 'apply-button').textContent!.trim()).to.equal('Anwenden');
      expect(getComputedStyle(part(el, 'base')).backgroundColor).to.equal('rgb(250, 240, 230)');
      expect(getComputedStyle(part(el, 'empty')).fontWeight).to.equal('700');
      expect(part(el, 'apply-button').getBoundingClientRect().height).to.be.at.least(44);

      const plain = await table({ 'session-token': 'wst_x', 'base-url': FAKE_BASE, theme: 'auto' });
      await emulateMedia({ colorScheme: 'dark' });
      await waitUntil(
        () => getComputedStyle(part(plain, 'base')).backgroundColor === 'rgb(31, 33, 36)',
        'dark, as the system',
        { timeout: 2000 },
      );
      await waitUntil(() => maybePart(plain, 'empty'));
      await expect(plain).to.be.accessible();
    } finally {
      await emulateMedia({ colorScheme: 'light' });
      remove();
    }
  });

  it('fits a narrow container, whatever its layout: the table scrolls in a keyboard-reachable, named region', async () => {
    service = fakeService({ 'GET /transactions': listing(3) });
    // Block, flex-row and grid containers size a child differently: in the last two the table's own width used
    // to become the element's minimum width and push it out of the container.
    for (const display of ['block', 'flex', 'grid']) {
      const narrow = document.createElement('div');
      narrow.style.cssText = `display:${display};width:320px`;
      document.body.append(narrow);
      try {
        const el = document.createElement('transactions-table');
        el.setAttribute('session-token', 'wst_fake');
        el.setAttribute('base-url', FAKE_BASE);
        el.strings = { caption: 'Ventes' };
        narrow.append(el);
        await waitUntil(() => rows(el).length === 3, 'rows loaded');
        await el.updateComplete;
        expect(el.getBoundingClientRect().width, `the element's width in a ${display} container`).to.be.at.most(320);
        expect(part(el, 'base').getBoundingClientRect().right).to.be.at.most(narrow.getBoundingClientRect().right);
        const region = shadow(el).querySelector<HTMLElement>('[role="region"]')!;
        expect(region, 'scrollable region').to.exist;
        expect(region.contains(part(el, 'table'))).to.equal(true);
        expect(region.scrollWidth, 'the table is wider than the region: it scrolls').to.be.greaterThan(
          region.clientWidth,
        );
        expect(getComputedStyle(region).overflowX).to.equal('auto');
        expect(region.tabIndex).to.equal(0);
        expect(
          shadow(el).getElementById(region.getAttribute('aria-labelledby')!)?.textContent,
          "the region's name",
        ).to.equal('Ventes');
        await expect(el).to.be.accessible();
      } finally {
        narrow.remove();
      }
    }
  });

  it('narrows the rows by search, status, kind and card, sorts them, and keeps the filters in attributes and an event', async () => {
    const all = [
      item(1, { card_brand: 'Visa', last_four: '4242' }),
      item(2, { card_brand: 'Mastercard', last_four: '4444', refunded_amount: '1.00', refundable_amount: '1.50' }),
      item(3, { card_brand: 'ACH', last_four: '6789', status: 'pending' }),
      item(4, { type: 'refund', amount: '-2.00' }),
      item(5, { card_brand: 'Mastercard', last_four: '4444', status: 'voided' }),
    ];
    // As the service's listing narrows and sorts (the contract of #32).
    service = fakeService({
      'GET /transactions': ({ url }) => {
        const get = (name: string) => url.searchParams.get(name) ?? '';
        const [q, status, kind, brand, sort, order] = ['q', 'status', 'kind', 'card_brand', 'sort', 'order'].map(get);
        let items = all.filter(
          (t) =>
            (!q || t.last_four === q || t.order_id === q || t.transaction_id === q) &&
            (!status || (status === 'refunded' ? Number(t.refunded_amount) > 0 : t.status === status)) &&
            (!kind || t.type === kind) &&
            (!brand || t.card_brand.toLowerCase() === brand),
        );
        if (sort === 'amount')
          items = items.sort((a, b) => (Number(a.amount) - Number(b.amount)) * (order === 'asc' ? 1 : -1));
        return ok({ items, page: 1, perPage: 20, totalCount: items.length, next_cursor: null, has_more: false });
      },
    });
    const changes: Record<string, string>[] = [];
    const el = await table({ 'session-token': 'wst_fake', 'base-url': FAKE_BASE, locale: 'en-US' }, (t) =>
      t.addEventListener('transactions-filter-change', (event) => changes.push({ ...event.detail })),
    );
    await waitUntil(() => rows(el).length === 5, 'every row');
    expect(rows(el).map((row) => row[3])).to.deep.equal([
      'Voided',
      'Refund · Completed',
      'Pending',
      'Partly refunded',
      'Completed',
    ]);

    const select = (name: string) => shadow(el).querySelector<HTMLSelectElement>(`select[name="${name}"]`)!;
    const apply = async (count: number) => {
      const loaded = eventWithin(el, 'transactions-load');
      part(el, 'apply-button').click();
      await loaded;
      await el.updateComplete;
      expect(rows(el), 'rows after applying').to.have.length(count);
    };
    // Keyboard: a last four typed into the search box, then Enter.
    part<HTMLInputElement>(el, 'search-input').focus();
    await sendKeys({ type: '4444' });
    let loaded = eventWithin(el, 'transactions-load');
    await sendKeys({ press: 'Enter' });
    await loaded;
    await el.updateComplete;
    expect(rows(el).map((row) => row[2])).to.deep.equal(['Mastercard •••• 4444', 'Mastercard •••• 4444']);
    expect(service.calls.at(-1)!.url.searchParams.get('q')).to.equal('4444');
    expect(el.q).to.equal('4444');
    expect(el.getAttribute('q')).to.equal('4444');
    expect(changes.at(-1)).to.deep.equal({
      q: '4444',
      status: '',
      kind: '',
      card_brand: '',
      from_date: '',
      to_date: '',
      sort: '',
      order: '',
    });

    part<HTMLInputElement>(el, 'search-input').value = '';
    select('status').value = 'refunded';
    await apply(1);
    expect(rows(el)[0]![0]).to.match(/^Jan 2, 2026/);
    select('status').value = '';
    select('kind').value = 'refund';
    await apply(1);
    select('kind').value = '';
    select('card_brand').value = 'mastercard';
    select('sorting').value = 'amount asc';
    await apply(2);
    expect(rows(el).map((row) => row[1])).to.deep.equal(['$2.50', '$5.50']);
    const query = service.calls.at(-1)!.url.searchParams;
    expect([
      query.get('card_brand'),
      query.get('sort'),
      query.get('order'),
      query.get('status'),
      query.has('kind'),
    ]).to.deep.equal(['mastercard', 'amount', 'asc', null, false]);
    expect(el.getAttribute('card-brand')).to.equal('mastercard');
    expect(changes.at(-1)).to.include({ card_brand: 'mastercard', sort: 'amount', order: 'asc', status: '', kind: '' });
    expect(changes).to.have.length(4);
    await expect(el).to.be.accessible();

    // A page sets the filters (from its URL, say): the table lists them and shows them in its form, firing no change.
    loaded = eventWithin(el, 'transactions-load');
    el.filters = Object.fromEntries(new URLSearchParams('status=pending&card_brand=ach&sort=nonsense'));
    await loaded;
    await el.updateComplete;
    expect(rows(el)).to.have.length(1);
    expect(el.filters).to.include({ status: 'pending', card_brand: 'ach', sort: '' });
    expect(service.calls.at(-1)!.url.searchParams.has('sort'), 'a value the service would refuse is not sent').to.equal(
      false,
    );
    expect([select('status').value, select('card_brand').value, select('sorting').value]).to.deep.equal([
      'pending',
      'ach',
      'date desc',
    ]);
    expect(changes).to.have.length(4);

    // Nothing matches, then Clear.
    part<HTMLInputElement>(el, 'search-input').value = 'order-404';
    await apply(0);
    expect(part(el, 'empty').textContent).to.equal('No transactions match these filters.');
    await expect(el).to.be.accessible();
    loaded = eventWithin(el, 'transactions-load');
    part(el, 'clear-button').click();
    await loaded;
    await el.updateComplete;
    expect(rows(el)).to.have.length(5);
    expect(changes.at(-1)).to.deep.equal({
      q: '',
      status: '',
      kind: '',
      card_brand: '',
      from_date: '',
      to_date: '',
      sort: '',
      order: '',
    });
    expect(
      ['q', 'status', 'card-brand'].filter((name) => el.hasAttribute(name)),
      'attributes left',
    ).to.deep.equal([]);
  });

  describe('the console: details and actions', () => {
    const future = new Date(Date.now() + 86_400_000).toISOString();
    /** The service's state: each transaction as the fake service last answered it. */
    let state: Record<string, TransactionItem>;
    const details = (t: TransactionItem, extra: object = {}) => ({
      ...t,
      timeline: [
        { at: t.created_date, what: t.type === 'preauth' ? 'authorized' : 'created', amount: t.amount },
        { at: t.created_date, what: 'receipt_sent' },
      ],
      refunds:
        Number(t.refunded_amount) > 0
          ? [{ transaction_id: `re_${t.transaction_id}`, amount: t.refunded_amount, created_date: t.created_date }]
          : [],
      ...extra,
    });
    const forbidden = (feature: string) => () =>
      json(403, {
        result: false,
        code: 'forbidden',
        message: `This session token does not allow it: features.${feature}.`,
      });
    /** What the fake session token allows: its listing says so, as the service's does. */
    let granted: Partial<ConsoleFeatures> = {};
    function consoleService(routes: Record<string, FakeRoute> = {}, features: Partial<ConsoleFeatures> = {}) {
      granted = features;
      state = {
        txn_3: item(3, { voidable_until: future }),
        txn_2: item(2, { order_id: 'order-two', refunded_amount: '0.00', refundable_amount: '2.50' }),
        txn_1: item(1, { type: 'preauth', status: 'authorized', capturable: true, refundable_amount: '0.00' }),
      };
      const change = (id: string, fields: Partial<TransactionItem>, extra: object = {}) =>
        ok(details((state[id] = { ...state[id]!, ...fields }), extra));
      return fakeService({
        'GET /transactions': () =>
          ok({
            items: Object.values(state),
            page: 1,
            perPage: 20,
            totalCount: 3,
            next_cursor: null,
            has_more: false,
            features: granted,
          }),
        ...Object.fromEntries(
          Object.keys(state).map((id) => [`GET /transactions/${id}`, () => ok(details(state[id]!))]),
        ),
        'POST /transactions/txn_3/undo': () =>
          change('txn_3', { status: 'voided', voidable_until: null, refundable_amount: '0.00' }, { undone_as: 'void' }),
        'POST /transactions/txn_2/refund': ({ body }) => {
          const amount = (body as { amount?: string }).amount ?? state.txn_2!.refundable_amount;
          const refunded = (Number(state.txn_2!.refunded_amount) + Number(amount)).toFixed(2);
          return change('txn_2', { refunded_amount: refunded, refundable_amount: (2.5 - Number(refunded)).toFixed(2) });
        },
        'POST /transactions/txn_2/undo': () =>
          change('txn_2', { refunded_amount: '2.50', refundable_amount: '0.00' }, { undone_as: 'refund' }),
        'POST /transactions/txn_2/receipt': () => change('txn_2', {}),
        'POST /transactions/txn_1/capture': () => change('txn_1', { status: 'captured', capturable: false }),
        ...routes,
      });
    }
    const row = (el: TransactionsTable, id: string) =>
      shadow(el).querySelector<HTMLTableRowElement>(`tr[data-transaction-id="${id}"]`)!;
    const panel = (el: TransactionsTable) => maybePart(el, 'details');
    const actionButton = (el: TransactionsTable, action: string) =>
      panel(el)?.querySelector<HTMLButtonElement>(`[data-action="${action}"]`) ?? null;
    const opened = async (el: TransactionsTable, id: string) => {
      row(el, id).querySelector<HTMLElement>('[part="details-button"]')!.click();
      await waitUntil(
        () => panel(el)?.id === `details-${id}` && panel(el)!.querySelector('[part="timeline"]'),
        `details of ${id}`,
      );
    };
    const settled = (el: TransactionsTable) =>
      waitUntil(() => !panel(el)?.querySelector('[aria-busy="true"]'), 'the action settles');
    /** The question a money action asks, once it is there. */
    const question = async (el: TransactionsTable) => {
      await waitUntil(() => maybePart(el, 'confirm'), 'the question');
      return part(el, 'confirm').querySelector('p')!.textContent!;
    };
    /** Clicks an action, then yes to its question. */
    const confirmed = async (el: TransactionsTable, action: string) => {
      actionButton(el, action)!.click();
      await question(el);
      part(el, 'confirm-button').click();
    };

    it('opens a row by keyboard (Enter or Space) into its timeline and refunds; Escape closes and gives focus back', async () => {
      service = consoleService();
      const el = await table({ 'session-token': 'wst_fake', 'base-url': FAKE_BASE, locale: 'en-US' });
      await waitUntil(() => rows(el).length === 3, 'rows');
      state.txn_2 = { ...state.txn_2!, refunded_amount: '1.00', refundable_amount: '1.50' };
      const button = row(el, 'txn_2').querySelector<HTMLElement>('[part="details-button"]')!;
      expect(button.getAttribute('aria-expanded')).to.equal('false');
      button.focus();
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => panel(el)?.querySelector('[part="timeline"]'), 'details');
      expect(button.getAttribute('aria-expanded')).to.equal('true');
      expect(panel(el)!.id).to.equal(button.getAttribute('aria-controls'));
      const text = panel(el)!.textContent!.replace(/\s+/g, ' ');
      expect(Array.from(panel(el)!.querySelectorAll('dt, dd')).map((cell) => cell.textContent)).to.deep.equal([
        'Transaction',
        'txn_2',
        'Order',
        'order-two',
        'Net amount',
        '$2.20',
        'Refunded',
        '$1.00',
      ]);
      expect(text).to.contain('Created · $2.50').and.contain('Receipt sent').and.contain('$1.00 · re_txn_2');
      expect(service.calls.at(-1)!.url.pathname).to.equal('/api/v1/widgets/transactions/txn_2');
      expect(service.calls.at(-1)!.headers.get('authorization')).to.equal('Bearer wst_fake');
      // A session without features: no actions at all.
      expect(maybePart(el, 'actions')).to.equal(null);
      await expect(el).to.be.accessible();

      await sendKeys({ press: 'Escape' });
      await el.updateComplete;
      expect(panel(el)).to.equal(null);
      expect(shadow(el).activeElement).to.equal(button);
      expect(button.getAttribute('aria-expanded')).to.equal('false');
      await sendKeys({ press: 'Space' });
      await waitUntil(() => panel(el)?.querySelector('[part="timeline"]'), 'details again');
      await sendKeys({ press: 'Escape' });
      await el.updateComplete;
      expect(panel(el)).to.equal(null);
    });

    it('shows only the actions the session allows: a 403 beside the row, nothing changed', async () => {
      service = consoleService({ 'POST /transactions/txn_2/refund': forbidden('refunds') }, { voids: true });
      const el = await table({ 'session-token': 'wst_fake', 'base-url': FAKE_BASE, locale: 'en-US' });
      await waitUntil(() => rows(el).length === 3, 'rows');
      await opened(el, 'txn_2');
      // Not voidable and refunds not allowed: nothing to do on this sale.
      expect(maybePart(el, 'actions')).to.equal(null);
      await opened(el, 'txn_3');
      expect(
        Array.from(panel(el)!.querySelectorAll('[data-action]')).map((b) => b.getAttribute('data-action')),
      ).to.deep.equal(['void', 'undo']);
      // The listing said refunds were allowed; the service refuses all the same (the token changed since): its
      // refusal beside the row.
      granted = { refunds: true };
      await el.reload();
      await opened(el, 'txn_2');
      let refunded = false;
      el.addEventListener('transaction-refunded', () => (refunded = true));
      const errors: CustomEvent[] = [];
      el.addEventListener('transactions-error', (event) => errors.push(event as CustomEvent));
      await confirmed(el, 'refund');
      await waitUntil(() => maybePart(el, 'row-error')?.textContent, 'the refusal');
      // The merchant reads what to do; the developer's sentence goes with the event.
      expect(part(el, 'row-error').textContent).to.equal(
        'This console is not allowed to do that. Ask whoever set up your console to allow it.',
      );
      expect(errors.map((event) => event.detail)).to.deep.equal([
        {
          code: 'forbidden',
          message: 'This console is not allowed to do that. Ask whoever set up your console to allow it.',
          developerMessage: 'This session token does not allow it: features.refunds.',
        },
      ]);
      expect(part(el, 'row-error').getAttribute('role')).to.equal('alert');
      expect(panel(el)!.previousElementSibling).to.equal(row(el, 'txn_2'));
      expect(rows(el)[1]![3]).to.equal('Completed');
      expect(refunded).to.equal(false);
      await expect(el).to.be.accessible();
    });

    it('shows each action’s 403 beside its row, fires nothing and changes nothing; a release goes through', async () => {
      const feature = {
        refund: 'refunds',
        void: 'voids',
        undo: 'voids',
        receipt: 'receipts',
        capture: 'captures',
      } as const;
      service = consoleService(
        {
          ...Object.fromEntries(
            Object.entries(feature).flatMap(([action, name]) =>
              ['txn_3', 'txn_1'].map((id) => [`POST /transactions/${id}/${action}`, forbidden(name)]),
            ),
          ),
          'POST /transactions/txn_1/release': () =>
            ok(details((state.txn_1 = { ...state.txn_1!, status: 'voided', capturable: false }))),
        },
        { refunds: true, voids: true, captures: true, receipts: true },
      );
      const el = await table({ 'session-token': 'wst_fake', 'base-url': FAKE_BASE, locale: 'en-US' });
      await waitUntil(() => rows(el).length === 3, 'rows');
      const fired: string[] = [];
      for (const type of [
        'transaction-refunded',
        'transaction-voided',
        'transaction-captured',
        'transaction-released',
        'transaction-undone',
        'receipt-sent',
      ]) {
        el.addEventListener(type, () => fired.push(type));
      }
      const before = rows(el);
      for (const [id, actions] of [
        ['txn_3', ['refund', 'void', 'undo', 'receipt']],
        ['txn_1', ['capture']],
      ] as const) {
        await opened(el, id);
        for (const action of actions) {
          if (action === 'receipt') actionButton(el, action)!.click();
          else await confirmed(el, action);
          // The click clears the last refusal at once; the new one arrives with the answer.
          await el.updateComplete;
          await waitUntil(() => maybePart(el, 'row-error')?.textContent, `${action}: the refusal`);
          expect(part(el, 'row-error').textContent).to.equal(
            'This console is not allowed to do that. Ask whoever set up your console to allow it.',
          );
          expect(panel(el)!.previousElementSibling).to.equal(row(el, id));
          await settled(el);
        }
      }
      expect(fired).to.deep.equal([]);
      expect(rows(el)).to.deep.equal(before);
      await expect(el).to.be.accessible();
      await confirmed(el, 'release');
      await waitUntil(() => fired.length === 1, 'transaction-released');
      expect(fired).to.deep.equal(['transaction-released']);
      await settled(el);
      expect(maybePart(el, 'row-error')?.textContent ?? '').to.equal('');
      expect(rows(el)[2]![3]).to.equal('Hold · Voided');
    });

    it('refunds in part, undoes by void or by refund, captures and resends, firing typed events and updating the row in place', async () => {
      service = consoleService({}, { refunds: true, voids: true, captures: true, receipts: true });
      const el = await table({ 'session-token': 'wst_fake', 'base-url': FAKE_BASE, locale: 'en-US' });
      await waitUntil(() => rows(el).length === 3, 'rows');
      const loads = service.calls.filter((call) => call.url.pathname.endsWith('/transactions')).length;
      const events: {
        type: string;
        detail: { transaction: { transaction_id: string; undone_as?: string }; amount?: string };
      }[] = [];
      for (const type of [
        'transaction-refunded',
        'transaction-voided',
        'transaction-captured',
        'transaction-released',
        'transaction-undone',
        'receipt-sent',
      ]) {
        el.addEventListener(type, (event) => events.push({ type, detail: (event as CustomEvent).detail }));
      }

      // Undo before settlement voids, and says so.
      await opened(el, 'txn_3');
      expect(panel(el)!.textContent).to.contain(
        'Undoing voids the sale: the fee is kept by nobody. A void is possible until',
      );
      expect(actionButton(el, 'undo')!.getAttribute('aria-describedby')).to.equal('undo-txn_3');
      await expect(el).to.be.accessible();
      await confirmed(el, 'undo');
      await waitUntil(() => events.length === 1, 'transaction-undone');
      expect(events[0]).to.deep.include({ type: 'transaction-undone' });
      expect(events[0]!.detail.transaction.undone_as).to.equal('void');
      await el.updateComplete;
      expect(rows(el)[0]![3]).to.equal('Voided');
      expect(part(el, 'row-status').textContent).to.equal('Done: Void.');
      expect(actionButton(el, 'undo')).to.equal(null);

      // After the void window, undo refunds in full; first a part refund, typed by keyboard.
      await opened(el, 'txn_2');
      expect(panel(el)!.textContent).to.contain("A settled sale can't be voided; undo refunds $2.50 in full.");
      panel(el)!.querySelector<HTMLInputElement>('[part="amount-input"]')!.focus();
      await sendKeys({ type: '1.00' });
      await sendKeys({ press: 'Enter' });
      expect(await question(el)).to.equal('Refund $1.00 of $2.50 to Visa •••• 4242?');
      part(el, 'confirm-button').click();
      await waitUntil(() => events.length === 2, 'transaction-refunded');
      expect(service.calls.at(-1)!.body).to.deep.equal({ amount: '1.00' });
      expect(events[1]!.type).to.equal('transaction-refunded');
      expect(events[1]!.detail.amount).to.equal('1.00');
      await settled(el);
      expect(rows(el)[1]![3]).to.equal('Partly refunded');
      expect(panel(el)!.textContent).to.contain(
        "A partly refunded sale can't be voided; undo refunds the rest, $1.50.",
      );
      actionButton(el, 'undo')!.click();
      expect(await question(el)).to.equal('Undo the sale: refund $1.50 to Visa •••• 4242?');
      part(el, 'confirm-button').click();
      await waitUntil(() => events.length === 3, 'transaction-undone by refund');
      expect(events[2]!.detail.transaction.undone_as).to.equal('refund');
      await settled(el);
      expect(rows(el)[1]![3]).to.equal('Refunded');
      expect(part(el, 'row-status').textContent).to.equal('Done: Refund.');
      actionButton(el, 'receipt')!.click();
      await waitUntil(() => events.length === 4, 'receipt-sent');
      expect(events[3]!.type).to.equal('receipt-sent');

      // A hold: capture in full, after which release is gone.
      await opened(el, 'txn_1');
      expect(actionButton(el, 'release')).to.not.equal(null);
      actionButton(el, 'capture')!.click();
      expect(await question(el)).to.equal('Capture $1.50 of the $1.50 held on Visa •••• 4242?');
      part(el, 'confirm-button').click();
      await waitUntil(() => events.length === 5, 'transaction-captured');
      expect(service.calls.at(-1)!.body, 'the amount the question showed').to.deep.equal({ amount: '1.50' });
      await settled(el);
      expect(rows(el)[2]![3]).to.equal('Hold · Captured');
      expect(actionButton(el, 'release')).to.equal(null);
      expect(
        service.calls.filter((call) => call.url.pathname.endsWith('/transactions')).length,
        'no reload of the listing',
      ).to.equal(loads);
      await expect(el).to.be.accessible();
    });

    it('asks before money moves, saying exactly what will happen; nothing is sent until yes, keyboard only, axe-clean at 375 px; the field empties after a refund', async () => {
      service = consoleService(
        {
          'POST /transactions/txn_1/release': () =>
            ok(details((state.txn_1 = { ...state.txn_1!, status: 'voided', capturable: false }))),
        },
        { refunds: true, voids: true, captures: true },
      );
      await setViewport({ width: 375, height: 800 });
      try {
        const el = await table({ 'session-token': 'wst_fake', 'base-url': FAKE_BASE, locale: 'en-US' });
        el.style.display = 'block';
        await waitUntil(() => rows(el).length === 3, 'rows');
        const posts = () => service!.calls.filter((call) => call.method === 'POST');
        const fits = () => {
          const { right } = part(el, 'confirm').getBoundingClientRect();
          expect(right, 'the question fits the phone').to.be.at.most(375);
          expect(document.documentElement.scrollWidth, 'no sideways scroll').to.be.at.most(375);
        };
        await opened(el, 'txn_2');
        const input = () => panel(el)!.querySelector<HTMLInputElement>('[part="amount-input"]')!;

        // An empty amount is the whole amount, said so; Enter twice answers nothing.
        input().focus();
        await sendKeys({ press: 'Enter' });
        expect(await question(el)).to.equal('Refund $2.50 of $2.50 to Visa •••• 4242?');
        expect(part(el, 'confirm').getAttribute('role')).to.equal('group');
        expect(shadow(el).activeElement, 'the question has focus').to.equal(part(el, 'confirm').querySelector('p'));
        await sendKeys({ press: 'Enter' });
        expect(posts()).to.deep.equal([]);
        fits();
        await expect(el).to.be.accessible();

        // Escape says no: the question goes, focus returns to Refund, the row stays open.
        await sendKeys({ press: 'Escape' });
        await el.updateComplete;
        expect(maybePart(el, 'confirm')).to.equal(null);
        expect(panel(el)?.id).to.equal('details-txn_2');
        expect(shadow(el).activeElement).to.equal(actionButton(el, 'refund'));

        // Amounts that are none, or too much, are refused here in the merchant's words.
        for (const [typed, refusal] of [
          ['-1', 'Enter an amount such as 5.00: it must be more than zero, with at most two decimals.'],
          ['0', 'Enter an amount such as 5.00: it must be more than zero, with at most two decimals.'],
          ['3.00', 'At most $2.50 can be refunded.'],
        ]) {
          input().value = typed!;
          actionButton(el, 'refund')!.click();
          await waitUntil(() => maybePart(el, 'row-error')?.textContent === refusal, typed!);
          expect(maybePart(el, 'confirm')).to.equal(null);
        }
        expect(posts()).to.deep.equal([]);

        // A question whose amount is then changed goes away: the amount asked about is the amount sent.
        input().value = '';
        input().focus();
        await sendKeys({ type: '1' });
        await sendKeys({ press: 'Enter' });
        expect(await question(el)).to.equal('Refund $1.00 of $2.50 to Visa •••• 4242?');
        input().focus();
        await sendKeys({ press: 'End' });
        await sendKeys({ type: '.5' });
        await el.updateComplete;
        expect(maybePart(el, 'confirm'), 'the question of $1.00 is gone').to.equal(null);
        await sendKeys({ press: 'Enter' });
        expect(await question(el)).to.equal('Refund $1.50 of $2.50 to Visa •••• 4242?');
        await sendKeys({ press: 'Tab' });
        expect(shadow(el).activeElement, 'the reason first').to.equal(part(el, 'reason-select'));
        await sendKeys({ press: 'Tab' });
        expect(shadow(el).activeElement).to.equal(part(el, 'confirm-button'));
        expect(part(el, 'confirm-button').textContent).to.equal('Refund');
        await sendKeys({ press: 'Enter' });
        await waitUntil(() => maybePart(el, 'row-status')?.textContent === 'Done: Refund.', 'the refund');
        expect(posts().map((call) => call.body)).to.deep.equal([{ amount: '1.50' }]);
        expect(input().value, 'the field is emptied').to.equal('');

        // No second refund from a stale field: Refund again asks about what is left, and sends nothing yet.
        actionButton(el, 'refund')!.click();
        expect(await question(el)).to.equal('Refund $1.00 of $1.00 to Visa •••• 4242?');
        expect(posts().length).to.equal(1);
        part(el, 'cancel-button').click();

        // Each money action's question.
        await opened(el, 'txn_3');
        actionButton(el, 'void')!.click();
        expect(await question(el)).to.equal('Void the sale of $3.50 on Visa •••• 4242? The shopper is not charged.');
        actionButton(el, 'undo')!.click();
        expect(await question(el)).to.equal('Undo the sale: void $3.50 on Visa •••• 4242? The shopper is not charged.');
        expect(part(el, 'confirm-button').textContent).to.equal('Void');
        await opened(el, 'txn_1');
        input().value = '2.00';
        actionButton(el, 'capture')!.click();
        expect(await question(el)).to.equal('Raise the hold on Visa •••• 4242 from $1.50 to $2.00 and capture it?');
        input().value = '1.00';
        actionButton(el, 'capture')!.click();
        await waitUntil(
          () => part(el, 'confirm').textContent!.includes('Capture $1.00 of the $1.50 held'),
          'a lower capture',
        );
        actionButton(el, 'release')!.click();
        await waitUntil(
          () =>
            part(el, 'confirm').textContent!.includes(
              'Release the $1.50 held on Visa •••• 4242? The shopper is not charged.',
            ),
          'the release',
        );
        fits();
        await expect(el).to.be.accessible();
        expect(posts().length, 'nothing sent without a yes').to.equal(1);
        part(el, 'confirm-button').click();
        await waitUntil(() => rows(el)[2]![3] === 'Hold · Voided', 'released');
      } finally {
        await setViewport({ width: 800, height: 600 });
      }
    });

    it('sends each action with an Idempotency-Key: the same one when it is tried again after no answer or a 503, a new one after an answer', async () => {
      const failures: (number | 'network')[] = ['network', 503];
      service = consoleService(
        {
          'POST /transactions/txn_2/refund': ({ body }) => {
            const failure = failures.shift();
            if (failure === 'network') throw new TypeError('Failed to fetch');
            if (failure)
              return json(failure, {
                result: false,
                code: 'service_error',
                message: 'The database is unavailable for a moment.',
              });
            const refunded = (
              Number(state.txn_2!.refunded_amount) + Number((body as { amount: string }).amount)
            ).toFixed(2);
            return ok(
              details(
                (state.txn_2 = {
                  ...state.txn_2!,
                  refunded_amount: refunded,
                  refundable_amount: (2.5 - Number(refunded)).toFixed(2),
                }),
              ),
            );
          },
        },
        { refunds: true },
      );
      const el = await table({ 'session-token': 'wst_fake', 'base-url': FAKE_BASE });
      await waitUntil(() => rows(el).length === 3, 'rows');
      await opened(el, 'txn_2');
      const refund = async (amount: string) => {
        const input = panel(el)!.querySelector<HTMLInputElement>('[part="amount-input"]')!;
        input.value = amount;
        const sent = service!.calls.length;
        await confirmed(el, 'refund');
        await waitUntil(() => service!.calls.length > sent, 'the refund sent');
        await settled(el);
        return service!.calls.at(-1)!.headers.get('idempotency-key');
      };
      const first = await refund('1.00');
      expect(first).to.match(/^[0-9a-z-]{8,}$/);
      expect(part(el, 'row-error').textContent).to.not.equal('');
      expect(await refund('1.00'), 'tried again after no answer').to.equal(first);
      expect(part(el, 'row-error').textContent).to.equal('The database is unavailable for a moment.');
      expect(await refund('1.00'), 'tried again after a 503').to.equal(first);
      expect(part(el, 'row-status').textContent).to.equal('Done: Refund.');
      const next = await refund('0.50');
      expect(next, 'another action').to.not.equal(first);
      const again = await refund('0.50');
      expect(again, 'the same action once more, after it was done, is a new one').to.not.equal(next);
      expect(state.txn_2!.refunded_amount).to.equal('2.00');
    });

    it('speaks the merchant’s language, dark and axe-clean with a row open; keyboard only from the row to an action; a failed load beside the row', async () => {
      service = consoleService(
        {
          'GET /transactions/txn_1': () =>
            json(404, { result: false, code: 'not_found', message: 'Keine solche Transaktion.' }),
        },
        { refunds: true, voids: true, captures: true, receipts: true, export: true },
      );
      const el = await table({ 'session-token': 'wst_fake', 'base-url': FAKE_BASE, locale: 'de-DE', theme: 'dark' });
      await waitUntil(
        () => rows(el).length === 3 && maybePart(el, 'export-button')?.textContent === 'Als CSV exportieren',
        'rows, in German',
      );
      let refunded: CustomEvent | undefined;
      el.addEventListener('transaction-refunded', (event) => (refunded = event));
      // Keyboard only: the row's button, Enter, then Tab into its panel to the refund amount, type, Enter.
      row(el, 'txn_2').querySelector<HTMLElement>('[part="details-button"]')!.focus();
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => panel(el)?.querySelector('[part="amount-input"]'), 'the refund form');
      const text = panel(el)!.textContent!.replace(/\s+/g, ' ');
      expect(text)
        .to.contain('Verlauf')
        .and.contain('Erstellt')
        .and.contain('Beleg gesendet')
        .and.contain('Keine Erstattungen.')
        .and.contain(
          'Ein abgerechneter Verkauf kann nicht storniert werden; Rückgängig machen erstattet 2,50 $ vollständig.',
        );
      expect(actionButton(el, 'refund')!.textContent).to.equal('Erstatten');
      await expect(el).to.be.accessible();
      await sendKeys({ press: 'Tab' });
      expect(shadow(el).activeElement).to.equal(panel(el)!.querySelector('[part="amount-input"]'));
      await sendKeys({ type: '0.50' });
      await sendKeys({ press: 'Enter' });
      expect(await question(el)).to.equal('0,50\u00a0$ von 2,50\u00a0$ an Visa •••• 4242 erstatten?');
      await sendKeys({ press: 'Tab' });
      expect(shadow(el).activeElement, 'the reason first').to.equal(part(el, 'reason-select'));
      await sendKeys({ press: 'Tab' });
      expect(shadow(el).activeElement).to.equal(part(el, 'confirm-button'));
      expect(part(el, 'confirm-button').textContent).to.equal('Erstatten');
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => refunded, 'transaction-refunded');
      expect(refunded!.detail.amount).to.equal('0.50');
      await settled(el);
      expect(part(el, 'row-status').textContent).to.equal('Erledigt: Erstatten.');
      expect(rows(el)[1]![3]).to.equal('Teilweise erstattet');

      row(el, 'txn_1').querySelector<HTMLElement>('[part="details-button"]')!.click();
      await waitUntil(
        () => panel(el)?.id === 'details-txn_1' && maybePart(el, 'row-error')?.textContent,
        'the refusal beside the row',
      );
      expect(part(el, 'row-error').textContent).to.equal('Keine solche Transaktion.');
      expect(panel(el)!.previousElementSibling).to.equal(row(el, 'txn_1'));
      await expect(el).to.be.accessible();
    });

    it('exports the filtered set as CSV with the session token, in the table’s language, only when allowed', async () => {
      let csvCall: FakeCall | undefined;
      service = consoleService({
        'GET /transactions/export.csv': (call) => {
          csvCall = call;
          return new Response('Fecha,Importe\n2026-01-03,3.50\n', {
            headers: {
              'content-type': 'text/csv; charset=utf-8',
              'content-disposition': 'attachment; filename="transactions-m-2026-01-05.csv"',
            },
          });
        },
      });
      const el = await table({
        'session-token': 'wst_fake',
        'base-url': FAKE_BASE,
        locale: 'es-ES',
        status: 'completed',
      });
      await waitUntil(() => rows(el).length === 3, 'rows');
      expect(maybePart(el, 'export-button')).to.equal(null);
      granted = { export: true };
      await el.reload();
      await el.updateComplete;
      const blobs: Blob[] = [];
      const names: string[] = [];
      const createObjectURL = URL.createObjectURL;
      const click = HTMLAnchorElement.prototype.click;
      URL.createObjectURL = (blob: Blob) => (blobs.push(blob), createObjectURL(blob));
      HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
        names.push(this.download);
      };
      try {
        await waitUntil(() => maybePart(el, 'export-button')?.textContent === 'Exportar CSV', 'the button, in Spanish');
        part(el, 'export-button').click();
        await waitUntil(() => names.length === 1, 'the download');
      } finally {
        URL.createObjectURL = createObjectURL;
        HTMLAnchorElement.prototype.click = click;
      }
      expect(names).to.deep.equal(['transactions-m-2026-01-05.csv']);
      expect(await blobs[0]!.text()).to.equal('Fecha,Importe\n2026-01-03,3.50\n');
      expect(csvCall!.headers.get('authorization')).to.equal('Bearer wst_fake');
      const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
      expect(
        Object.fromEntries(csvCall!.url.searchParams),
        'the language and the time zone of the dates',
      ).to.deep.equal({ status: 'completed', lang: 'es', tz });
    });

    it('says why an export was refused, in the alert under the filters', async () => {
      service = consoleService({ 'GET /transactions/export.csv': forbidden('export') }, { export: true });
      const el = await table({ 'session-token': 'wst_fake', 'base-url': FAKE_BASE });
      await waitUntil(() => rows(el).length === 3, 'rows');
      part(el, 'export-button').click();
      const alert = shadow(el).getElementById('range-error')!;
      await waitUntil(() => alert.textContent, 'the refusal');
      expect(alert.textContent).to.equal('This session token does not allow it: features.export.');
      expect(alert.getAttribute('role')).to.equal('alert');
      await expect(el).to.be.accessible();
    });
  });

  it('reflows into cards on a 360–375 px phone, light and dark: no clipped cell, no sideways scroll', async () => {
    service = fakeService({
      'GET /transactions': () =>
        ok({
          items: [
            item(3, { card_brand: 'American Express', last_four: '0005', type: 'refund' }),
            item(2, { amount: '123456.78', card_brand: 'ACH', last_four: '6789', status: 'pending' }),
            item(1, { status: 'voided', type: 'void' }),
          ],
          page: 1,
          perPage: 20,
          totalCount: 3,
        }),
    });
    try {
      for (const width of [360, 375]) {
        await setViewport({ width, height: 800 });
        const el = await table({ 'session-token': 'wst_fake', 'base-url': FAKE_BASE, locale: 'de-DE' });
        el.style.display = 'block';
        await waitUntil(() => rows(el).length === 3, 'rows loaded');
        for (const colorScheme of ['light', 'dark'] as const) {
          await emulateMedia({ colorScheme });
          el.theme = 'auto';
          await el.updateComplete;
          const region = shadow(el).querySelector<HTMLElement>('[role="region"]')!;
          expect(region.scrollWidth, `${width} px, ${colorScheme}: the region scrolls sideways`).to.be.at.most(
            region.clientWidth,
          );
          expect(document.documentElement.scrollWidth, `${width} px: the page scrolls sideways`).to.be.at.most(
            document.documentElement.clientWidth,
          );
          const right = part(el, 'base').getBoundingClientRect().right;
          for (const cell of shadow(el).querySelectorAll('td')) {
            expect(cell.getBoundingClientRect().right, `a cell is clipped: ${cell.textContent}`).to.be.at.most(right);
            expect(cell.scrollWidth, `a cell's text overflows: ${cell.textContent}`).to.be.at.most(cell.clientWidth);
          }
          // Cards: the row's second line (card and status) sits under its first (date and amount).
          const [date, , card] = Array.from(shadow(el).querySelectorAll('tbody tr:first-child td'));
          expect(card!.getBoundingClientRect().top).to.be.at.least(date!.getBoundingClientRect().bottom - 1);
          await expect(el).to.be.accessible();
        }
        el.remove();
      }
    } finally {
      await emulateMedia({ colorScheme: 'light' });
      await setViewport({ width: 800, height: 600 });
    }
  });

  it('falls back to its defaults when an adapter sets strings and pageSize to undefined or null', async () => {
    service = fakeService({ 'GET /transactions': listing(3) });
    const el = await table({ 'session-token': 'wst_fake', 'base-url': FAKE_BASE });
    await waitUntil(() => rows(el).length === 3, 'first page');
    for (const empty of [undefined, null]) {
      el.strings = empty as never;
      await el.updateComplete;
      expect(part(el, 'status').textContent).to.equal('Showing 1–3 of 3 transactions.');
      expect(rows(el)[0]![3]).to.equal('Completed');
    }
    for (const size of [undefined, null, 0, Number.NaN, -5, 1.5, 1000]) {
      const calls = service.calls.length;
      el.pageSize = size as never;
      await waitUntil(
        () => service!.calls.length > calls && el.matches(':state(loaded)'),
        `reloaded for pageSize ${size}`,
      );
      const perPage = service.calls.at(-1)!.url.searchParams.get('perPage');
      expect(perPage, `perPage for pageSize ${size}`).to.equal(size === 1.5 ? '1' : size === 1000 ? '100' : '20');
    }
  });

  it('ignores the answer to a load that a newer one replaced', async () => {
    const answers: ((response: Response) => void)[] = [];
    service = fakeService({ 'GET /transactions': () => new Promise<Response>((resolve) => answers.push(resolve)) });
    const el = await table({ 'session-token': 'wst_a', 'base-url': FAKE_BASE });
    el.sessionToken = 'wst_b';
    await waitUntil(() => answers.length === 2);
    answers[1]!(ok({ items: [item(2)], page: 1, perPage: 20, totalCount: 1 }));
    await waitUntil(() => rows(el).length === 1);
    answers[0]!(ok({ items: [item(1), item(3)], page: 1, perPage: 20, totalCount: 2 }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(rows(el)).to.have.length(1);
  });
});

/** Yes to the question a money action asks. */
async function yes(el: TransactionsTable): Promise<void> {
  await waitUntil(() => maybePart(el, 'confirm-button'), 'the question');
  part(el, 'confirm-button').click();
}

describe('<transactions-table> with the service', function () {
  this.timeout(15000);

  it('loads the merchant’s transactions, newest first', async function () {
    const service = realService(this);
    let total: number | undefined;
    const el = await table({ 'session-token': service.sessionToken, 'base-url': service.baseUrl }, (t) =>
      t.addEventListener('transactions-load', (event) => (total = event.detail.total)),
    );
    await waitUntil(() => total !== undefined, 'transactions-load', { timeout: 8000 });
    expect(total).to.be.at.least(1);
    expect(rows(el)).to.have.length(Math.min(total!, 20));
    // In the listing's order, which is newest first.
    const listing = await fetch(`${service.baseUrl}/api/v1/widgets/transactions`, {
      headers: { authorization: `Bearer ${service.sessionToken}` },
    });
    const { items } = (await listing.json()).data as { items: { transaction_id: string; created_date: string }[] };
    const shown = Array.from(shadow(el).querySelectorAll<HTMLElement>('tbody tr[part="row"]'));
    expect(shown.map((row) => row.dataset.transactionId)).to.deep.equal(items.map((item) => item.transaction_id));
    const times = items.map((item) => Date.parse(item.created_date));
    expect(times).to.deep.equal([...times].sort((a, b) => b - a));
    expect(rows(el)[0]![2]).to.match(/•••• \d{4}$/);
    expect(rows(el, true)[0]![2]).to.match(/ending in \d{4}$/);
    expect(part(el, 'page-status').textContent).to.equal(`Page 1 of ${Math.ceil(total! / 20)}`);
    await expect(el).to.be.accessible();
  });

  it('pages through them', async function () {
    const service = realService(this);
    let total: number | undefined;
    const el = await table(
      { 'session-token': service.sessionToken, 'base-url': service.baseUrl, 'page-size': '1' },
      (t) => t.addEventListener('transactions-load', (event) => (total = event.detail.total)),
    );
    await waitUntil(() => total !== undefined, 'transactions-load', { timeout: 8000 });
    expect(total, 'the test merchant needs at least two transactions').to.be.at.least(2);
    const first = rows(el)[0];
    expect(part(el, 'page-status').textContent).to.equal(`Page 1 of ${total}`);
    const next = eventWithin(el, 'transactions-load', 8000);
    part(el, 'next-button').click();
    await next;
    await el.updateComplete;
    expect(part(el, 'page-status').textContent).to.equal(`Page 2 of ${total}`);
    expect(rows(el)).to.have.length(1);
    expect(rows(el)[0]).not.to.deep.equal(first);
  });

  it('shows the empty state for a range without transactions', async function () {
    const service = realService(this);
    const el = await table({ 'session-token': service.sessionToken, 'base-url': service.baseUrl });
    await waitUntil(() => el.matches(':state(loaded)'), 'first load', { timeout: 8000 });
    const [from, to] = Array.from(shadow(el).querySelectorAll<HTMLInputElement>('input[type="date"]'));
    from!.value = '2001-01-01';
    to!.value = '2001-01-31';
    const loaded = eventWithin<CustomEvent>(el, 'transactions-load', 8000);
    part(el, 'apply-button').click();
    expect((await loaded).detail).to.deep.equal({ total: 0 });
    await el.updateComplete;
    expect(part(el, 'empty').textContent).to.equal('No transactions between these dates.');
    await expect(el).to.be.accessible();
  });

  it('shows the service’s error for a refused token', async function () {
    const service = realService(this);
    let message: string | undefined;
    const el = await table({ 'session-token': 'wst_not_a_real_token', 'base-url': service.baseUrl }, (t) =>
      t.addEventListener('transactions-error', (event) => (message = event.detail.message)),
    );
    await waitUntil(() => message, 'transactions-error', { timeout: 8000 });
    expect(message).to.equal('The session token is missing, expired or not valid: ask your server for a new one.');
    await el.updateComplete;
    expect(part(el, 'error').textContent).to.equal(message);
    await expect(el).to.be.accessible();
  });

  it('renews a refused token once through fetchSessionToken and retries', async function () {
    const service = realService(this);
    let asked = 0;
    let total: number | undefined;
    const el = await table({ 'session-token': 'wst_expired_or_wrong', 'base-url': service.baseUrl }, (t) => {
      t.fetchSessionToken = async () => {
        asked++;
        return service.sessionToken;
      };
      t.addEventListener('transactions-load', (event) => (total = event.detail.total));
    });
    await waitUntil(() => total !== undefined, 'transactions-load after the renewal', { timeout: 8000 });
    expect(asked).to.equal(1);
    expect(total).to.be.at.least(1);
    expect(rows(el).length).to.be.at.least(1);

    // A renewal that is refused too is reported, not retried forever.
    let message: string | undefined;
    let askedAgain = 0;
    await table({ 'session-token': 'wst_bad_1', 'base-url': service.baseUrl }, (t) => {
      t.fetchSessionToken = async () => {
        askedAgain++;
        return 'wst_bad_2';
      };
      t.addEventListener('transactions-error', (event) => (message = event.detail.message));
    });
    await waitUntil(() => message, 'transactions-error', { timeout: 8000 });
    expect(askedAgain).to.equal(1);
  });
});

describe('<transactions-table> as the console, with the service (#32)', function () {
  this.timeout(20000);

  /** The service's own listing for `query`, read with `token`: what the table must show. */
  async function listed(service: PaykitTestService, token: string, query: Record<string, string>) {
    const response = await fetch(
      `${service.baseUrl}/api/v1/widgets/transactions?${new URLSearchParams({ page: '1', perPage: '100', ...query })}`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    const body = await response.json();
    expect(response.status, body.message).to.equal(200);
    return body.data.items as TransactionItem[];
  }
  const ids = (el: TransactionsTable) =>
    Array.from(shadow(el).querySelectorAll('tbody tr[part="row"]')).map((row) =>
      row.getAttribute('data-transaction-id'),
    );

  it('narrows the rows by each filter and the search as the service’s listing does', async function () {
    const service = realService(this);
    const el = await table({ 'session-token': service.sessionToken, 'base-url': service.baseUrl, 'page-size': '100' });
    await waitUntil(() => el.matches(':state(loaded)'), 'first load', { timeout: 8000 });
    const all = await listed(service, service.sessionToken, {});
    const sale = all.find((t) => t.type === 'sale')!;
    const queries: Record<string, string>[] = [
      { q: sale.amount },
      { q: sale.last_four },
      { q: sale.transaction_id },
      { status: 'completed' },
      { status: 'voided' },
      { kind: 'sale' },
      { kind: 'refund' },
      { card_brand: 'visa' },
      { card_brand: 'amex' },
      { sort: 'amount', order: 'asc' },
      { kind: 'sale', sort: 'amount', order: 'desc' },
    ];
    for (const query of queries) {
      const loaded = eventWithin(el, 'transactions-load', 8000);
      el.filters = query;
      await loaded;
      await el.updateComplete;
      const expected = (await listed(service, service.sessionToken, query)).map((t) => t.transaction_id);
      expect(ids(el), JSON.stringify(query)).to.deep.equal(expected);
      if (query.q) expect(expected, `${JSON.stringify(query)} finds the sale`).to.include(sale.transaction_id);
    }
    await expect(el).to.be.accessible();
  });

  it('shows a read-only token no action: its listing says it allows none, the service refuses one sent anyway, and nothing changes', async function () {
    const service = realService(this);
    const el = await table({ 'session-token': service.sessionToken, 'base-url': service.baseUrl, kind: 'sale' });
    await waitUntil(() => el.matches(':state(loaded)'), 'first load', { timeout: 8000 });
    const id = ids(el)[0]!;
    const before = (await listed(service, service.sessionToken, { q: id }))[0]!;
    shadow(el).querySelector<HTMLElement>(`tr[data-transaction-id="${id}"] [part="details-button"]`)!.click();
    await waitUntil(() => maybePart(el, 'timeline'), 'the details', { timeout: 8000 });
    expect(maybePart(el, 'actions')).to.equal(null);
    expect(maybePart(el, 'export-button')).to.equal(null);
    const refused = await fetch(`${service.baseUrl}/api/v1/widgets/transactions/${id}/refund`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.sessionToken}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).to.equal(403);
    expect((await refused.json()).message).to.match(/features\.refunds/);
    expect((await listed(service, service.sessionToken, { q: id }))[0]).to.deep.equal(before);
    await expect(el).to.be.accessible();
  });

  it('refunds in part and undoes a sale before settlement by a void, with the console’s token', async function () {
    const service = realService(this);
    const token = service.consoleSessionToken;
    expect(token, 'the browser tests’ service mints a session with features').to.be.a('string');
    const el = await table({
      'session-token': token!,
      'base-url': service.baseUrl,
      kind: 'sale',
      status: 'completed',
      locale: 'en-US',
    });
    await waitUntil(() => el.matches(':state(loaded)'), 'first load', { timeout: 8000 });
    const events: CustomEvent[] = [];
    for (const type of ['transaction-refunded', 'transaction-undone', 'receipt-sent'])
      el.addEventListener(type, (event) => events.push(event as CustomEvent));
    const open = async (id: string) => {
      shadow(el).querySelector<HTMLElement>(`tr[data-transaction-id="${id}"] [part="details-button"]`)!.click();
      await waitUntil(
        () => maybePart(el, 'details')?.id === `details-${id}` && maybePart(el, 'timeline'),
        `details of ${id}`,
        { timeout: 8000 },
      );
    };
    const sales = await listed(service, token!, { kind: 'sale', status: 'completed' });
    expect(sales.length, 'two untouched sales').to.be.at.least(2);
    const [first, second] = sales;

    await open(first!.transaction_id);
    maybePart(el, 'details')!.querySelector<HTMLInputElement>('[part="amount-input"]')!.value = '1.00';
    maybePart(el, 'details')!.querySelector<HTMLButtonElement>('[data-action="refund"]')!.click();
    await yes(el);
    await waitUntil(() => events.length === 1, 'transaction-refunded', { timeout: 8000 });
    expect(
      maybePart(el, 'details')!.querySelector<HTMLInputElement>('[part="amount-input"]')!.value,
      'the field emptied',
    ).to.equal('');
    expect(events[0]!.detail.transaction.refunded_amount).to.equal('1.00');
    expect((await listed(service, token!, { q: first!.transaction_id }))[0]!.refunded_amount).to.equal('1.00');
    await waitUntil(() => maybePart(el, 'row-status')?.textContent, 'the row says so', { timeout: 8000 });
    expect(
      shadow(el).querySelector(`tr[data-transaction-id="${first!.transaction_id}"] td:last-child`)!.textContent,
    ).to.equal('Partly refunded');

    await open(second!.transaction_id);
    expect(maybePart(el, 'details')!.textContent).to.contain('the fee is kept by nobody');
    maybePart(el, 'details')!.querySelector<HTMLButtonElement>('[data-action="undo"]')!.click();
    await yes(el);
    await waitUntil(() => events.length === 2, 'transaction-undone', { timeout: 8000 });
    expect(events[1]!.detail.transaction.undone_as).to.equal('void');
    expect((await listed(service, token!, { q: second!.transaction_id }))[0]!.status).to.equal('voided');
    await waitUntil(() => maybePart(el, 'row-status')?.textContent, 'the row says so', { timeout: 8000 });
    maybePart(el, 'details')!.querySelector<HTMLButtonElement>('[data-action="receipt"]')?.click();
    await expect(el).to.be.accessible();
  });

  it('exports the filtered set as the listing has it, every page', async function () {
    const service = realService(this);
    const token = service.consoleSessionToken;
    expect(token, 'the browser tests’ service mints a session with features').to.be.a('string');
    const el = await table({
      'session-token': token!,
      'base-url': service.baseUrl,
      kind: 'sale',
      'page-size': '1',
      locale: 'de-DE',
    });
    await waitUntil(() => el.matches(':state(loaded)'), 'first load', { timeout: 8000 });
    const blobs: Blob[] = [];
    const createObjectURL = URL.createObjectURL;
    const click = HTMLAnchorElement.prototype.click;
    URL.createObjectURL = (blob: Blob) => (blobs.push(blob), createObjectURL(blob));
    HTMLAnchorElement.prototype.click = function () {};
    try {
      part(el, 'export-button').click();
      await waitUntil(() => blobs.length === 1, 'the download', { timeout: 8000 });
    } finally {
      URL.createObjectURL = createObjectURL;
      HTMLAnchorElement.prototype.click = click;
    }
    const lines = (await blobs[0]!.text()).trim().split(/\r?\n/);
    const sales = await listed(service, token!, { kind: 'sale' });
    expect(lines.length - 1, 'one line a sale, after the header').to.equal(sales.length);
    for (const sale of sales)
      expect(
        lines.some((line) => line.includes(sale.transaction_id)),
        sale.transaction_id,
      ).to.equal(true);
  });
});
