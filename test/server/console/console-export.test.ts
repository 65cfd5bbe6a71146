import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { approvedMerchant, partnerClient } from '../../support/payments.ts';
import { testDatabases } from '../../support/databases.ts';
import { consoleCall, consoleSession, payment } from '../../support/console.ts';
import { EXPORT_PAGE } from '../../../server/services/transactions-csv.ts';

/** Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF lines). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\r' && text[i + 1] === '\n') row.push(field), rows.push(row), (row = []), (field = ''), i++;
    else field += c;
  }
  assert.equal(field + row.join(''), '', 'the text ends with a line break');
  return rows;
}

/** The CSV export over both routes equals the listing of every page; its header speaks the language asked. */
for (const database of testDatabases()) {
  describe(`the console's CSV export (${database})`, () => {
    let service: TestService;
    let merchantKey: string;
    let merchantId: string;
    let call: ReturnType<typeof consoleCall>;
    before(async () => {
      service = await startService({ database });
      ({ merchantKey, merchantId } = await approvedMerchant(service));
      const { session_token } = await consoleSession(service, merchantKey, { export: true, refunds: true, voids: true });
      call = consoleCall(service, session_token);
      const refunded = await payment(service, merchantKey, '80.00', { orderId: 'order "one", with =SUM(A1)' });
      await payment(service, merchantKey, '12.50', { orderId: '=HYPERLINK("x")' });
      const voided = await payment(service, merchantKey, '45.00');
      await payment(service, merchantKey, '30.00', { ach: true });
      assert.equal((await call('POST', `/${refunded}/refund`, { amount: '20.00' })).status, 200);
      assert.equal((await call('POST', `/${voided}/void`)).status, 200);
      // More rows than one page of the export's walk, written straight into the store: the stream reads page after page.
      const sale = (await service.store.transactions.find(merchantId, voided))!;
      const base = Date.parse('2026-01-01T00:00:00.000Z');
      for (let i = 0; i < EXPORT_PAGE * 2 + 7; i++) {
        const at = new Date(base + i * 60_000).toISOString();
        await service.store.transactions.insert({
          ...sale, id: `txn_bulk_${String(i).padStart(5, '0')}`, parent_id: null, status: 'completed', order_id: `bulk-${i}`,
          amount: 100 + i, net_amount: 97 + i, refunded_amount: 0, created_at: at, completed_at: at, settled_at: at,
        });
      }
    });
    after(() => service.close());

    async function listingOf(query: string) {
      const items: { transaction_id: string; amount: string; order_id: string; created_date: string; refunded_amount: string }[] = [];
      let cursor: string | null = null;
      for (let pages = 0; pages < 200; pages++) {
        const answer = await call('GET', `?perPage=100&${query}${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(answer.status, 200, answer.text);
        items.push(...answer.body.data.items);
        cursor = answer.body.data.next_cursor;
        if (!cursor) return items;
      }
      throw new Error('more than 200 pages');
    }

    test('the export of a filtered set is the listing of all its pages, row for row, amounts as decimal text', async () => {
      for (const query of ['', 'kind=sale', 'status=refunded', 'status=voided', 'sort=amount&order=asc', 'q=12.50', 'card_brand=ach', 'from_date=2026-01-01&to_date=2026-01-01']) {
        const listed = await listingOf(query);
        const answer = await service.request('GET', `/api/v1/widgets/transactions/export.csv?${query}`, { headers: { authorization: `Bearer ${(await consoleSession(service, merchantKey, { export: true })).session_token}` } });
        assert.equal(answer.status, 200, answer.text);
        const [header, ...rows] = parseCsv(answer.text);
        assert.equal(header![0], 'Transaction ID');
        assert.deepEqual(rows.map((r) => r[0]), listed.map((i) => i.transaction_id), query);
        assert.deepEqual(rows.map((r) => [r[1], r[4], r[5]]), listed.map((i) => [i.created_date, i.amount, i.refunded_amount]), query);
        assert.ok(rows.every((r) => /^-?\d+\.\d{2}$/.test(r[4]!) && /^-?\d+\.\d{2}$/.test(r[6]!)), 'amounts as decimal text');
      }
      assert.ok((await listingOf('')).length > EXPORT_PAGE * 2, 'the whole listing is longer than two pages of the walk');
    });

    test('an order id beginning that begins more than 1,000 order ids is searched as a whole order id, and the answer says so', async () => {
      const begun = await call('GET', '?q=BULK-100');
      assert.deepEqual(begun.body.data.items.map((i: { order_id: string }) => i.order_id).sort(), ['bulk-100', ...Array.from({ length: 7 }, (_, i) => `bulk-100${i}`)].sort(), 'bulk-100 and bulk-1000 to 1006');
      assert.equal(begun.body.message, 'Transactions retrieved.');
      const broad = await call('GET', '?q=Bulk');
      assert.equal(broad.status, 200, broad.text);
      assert.deepEqual(broad.body.data.items, []);
      assert.equal(broad.body.message, 'Transactions retrieved. More than 1,000 order ids begin with "Bulk": only the order id "Bulk" itself was searched.');
    });

    test('headers, file name, the language of the header row, escaping and formulas made inert', async () => {
      const { session_token } = await consoleSession(service, merchantKey, { export: true });
      const headers = { authorization: `Bearer ${session_token}` };
      const answer = await service.request('GET', '/api/v1/widgets/transactions/export.csv?q=12.50', { headers: { ...headers, origin: 'https://shop.example' } });
      assert.equal(answer.headers['content-type'], 'text/csv; charset=utf-8');
      assert.equal(answer.headers['access-control-allow-origin'], 'https://shop.example', 'a page on another origin may read it');
      assert.equal(answer.headers['access-control-expose-headers'], 'Content-Disposition');
      assert.match(String(answer.headers['content-disposition']), new RegExp(`^attachment; filename="transactions-${merchantId}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`));
      const firsts = { en: 'Transaction ID', es: 'ID de transacción', fr: 'ID de transaction', de: 'Transaktions-ID' };
      for (const [lang, first] of Object.entries(firsts)) {
        const localized = await service.request('GET', `/api/v1/widgets/transactions/export.csv?lang=${lang}&q=12.50`, { headers });
        assert.equal(parseCsv(localized.text)[0]![0], first, lang);
      }
      const orders = parseCsv((await service.request('GET', '/api/v1/widgets/transactions/export.csv?kind=sale', { headers })).text).map((r) => r[9]);
      assert.ok(orders.includes('\'=HYPERLINK("x")'), 'a formula gets an apostrophe');
      assert.ok(orders.includes('\'order "one", with =SUM(A1)') || orders.includes('order "one", with =SUM(A1)'));
      const bad = await service.request('GET', '/api/v1/widgets/transactions/export.csv?lang=it', { headers });
      assert.deepEqual([bad.status, bad.body.code], [400, 'invalid_request']);
    });

    test('the export needs the export feature; the client-credentials twin and paykit/client give the same CSV', async () => {
      const { session_token } = await consoleSession(service, merchantKey, { refunds: true, voids: true, captures: true, receipts: true });
      const refused = await service.request('GET', '/api/v1/widgets/transactions/export.csv', { headers: { authorization: `Bearer ${session_token}` } });
      assert.deepEqual([refused.status, refused.body.code], [403, 'forbidden'], refused.text);
      const allowed = (await consoleSession(service, merchantKey, { export: true })).session_token;
      const widget = await service.request('GET', '/api/v1/widgets/transactions/export.csv?status=completed&lang=fr', { headers: { authorization: `Bearer ${allowed}` } });
      const twin = await service.api('GET', `/merchant/transactions/export.csv?merchant_key=${encodeURIComponent(merchantKey)}&status=completed&lang=fr`);
      assert.equal(twin.status, 200, twin.text);
      assert.equal(twin.text, widget.text);
      const viaClient = await partnerClient(service).transactions.exportTransactions(merchantKey, { status: 'completed', lang: 'fr' });
      assert.equal(viaClient, widget.text);
      await assert.rejects(partnerClient(service).transactions.exportTransactions('mk_nobody', {}), (error: Error & { status?: number }) => error.status === 404);
      const other = await approvedMerchant(service);
      const theirs = await service.api('GET', `/merchant/transactions/export.csv?merchant_key=${encodeURIComponent(other.merchantKey)}`);
      assert.equal(parseCsv(theirs.text).length, 1, "another merchant's export has the header row alone");
    });
  });
}
