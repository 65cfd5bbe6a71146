import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { approvedMerchant, partnerClient } from '../../support/payments.ts';
import { testDatabases } from '../../support/databases.ts';
import { consoleCall, consoleSession, payment } from '../../support/console.ts';
import { parse } from 'csv-parse/sync';
import { EXPORT_PAGE } from '../../../server/services/transactions-csv.ts';

/** The export as a spreadsheet reads it: csv-parse, the byte-order mark required, rows as arrays of cells. */
function parseCsv(text: string, delimiter = ','): string[][] {
  assert.equal(text.charCodeAt(0), 0xfeff, 'the text starts with a byte-order mark');
  assert.ok(text.endsWith('\r\n'), 'CRLF lines, the last one ended');
  return parse(text, { bom: true, delimiter, record_delimiter: '\r\n', relax_column_count: false }) as string[][];
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
      const { session_token } = await consoleSession(service, merchantKey, {
        export: true,
        refunds: true,
        voids: true,
      });
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
          ...sale,
          id: `txn_bulk_${String(i).padStart(5, '0')}`,
          parent_id: null,
          status: 'completed',
          order_id: `bulk-${i}`,
          amount: 100 + i,
          net_amount: 97 + i,
          refunded_amount: 0,
          created_at: at,
          completed_at: at,
          settled_at: at,
        });
      }
    });
    after(() => service.close());

    async function listingOf(query: string) {
      const items: {
        transaction_id: string;
        amount: string;
        order_id: string;
        created_date: string;
        refunded_amount: string;
      }[] = [];
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
      for (const query of [
        '',
        'kind=sale',
        'status=refunded',
        'status=voided',
        'sort=amount&order=asc',
        'q=12.50',
        'card_brand=ach',
        'from_date=2026-01-01&to_date=2026-01-01',
      ]) {
        const listed = await listingOf(query);
        const answer = await service.request('GET', `/api/v1/widgets/transactions/export.csv?${query}`, {
          headers: {
            authorization: `Bearer ${(await consoleSession(service, merchantKey, { export: true })).session_token}`,
          },
        });
        assert.equal(answer.status, 200, answer.text);
        const [header, ...rows] = parseCsv(answer.text);
        assert.equal(header![0], 'Transaction ID');
        assert.equal(header![1], 'Date (UTC)', 'no tz: UTC, named');
        assert.deepEqual(
          rows.map((r) => r[0]),
          listed.map((i) => i.transaction_id),
          query,
        );
        assert.deepEqual(
          rows.map((r) => [r[1], r[4], r[5]]),
          listed.map((i) => [i.created_date.slice(0, 19).replace('T', ' '), i.amount, i.refunded_amount]),
          query,
        );
        assert.ok(
          rows.every((r) => /^-?\d+\.\d{2}$/.test(r[4]!) && /^(-?\d+\.\d{2})?$/.test(r[6]!)),
          'amounts as decimal text',
        );
      }
      assert.ok(
        (await listingOf('')).length > EXPORT_PAGE * 2,
        'the whole listing is longer than two pages of the walk',
      );
    });

    test('an order id beginning that begins more than 1,000 order ids is searched as a whole order id, and the answer says so', async () => {
      const begun = await call('GET', '?q=BULK-100');
      assert.deepEqual(
        begun.body.data.items.map((i: { order_id: string }) => i.order_id).sort(),
        ['bulk-100', ...Array.from({ length: 7 }, (_, i) => `bulk-100${i}`)].sort(),
        'bulk-100 and bulk-1000 to 1006',
      );
      assert.equal(begun.body.message, 'Transactions retrieved.');
      const broad = await call('GET', '?q=Bulk');
      assert.equal(broad.status, 200, broad.text);
      assert.deepEqual(broad.body.data.items, []);
      assert.equal(
        broad.body.message,
        'Transactions retrieved. More than 1,000 order ids begin with "Bulk": only the order id "Bulk" itself was searched.',
      );
    });

    test('headers, file name, the language of the header row, escaping and formulas made inert', async () => {
      const { session_token } = await consoleSession(service, merchantKey, { export: true });
      const headers = { authorization: `Bearer ${session_token}` };
      const answer = await service.request('GET', '/api/v1/widgets/transactions/export.csv?q=12.50', {
        headers: { ...headers, origin: 'https://shop.example' },
      });
      assert.equal(answer.headers['content-type'], 'text/csv; charset=utf-8');
      assert.equal(
        answer.headers['access-control-allow-origin'],
        'https://shop.example',
        'a page on another origin may read it',
      );
      assert.equal(answer.headers['access-control-expose-headers'], 'Content-Disposition');
      assert.match(
        String(answer.headers['content-disposition']),
        new RegExp(`^attachment; filename="transactions-${merchantId}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
      );
      const firsts = { en: 'Transaction ID', es: 'ID de transacción', fr: 'ID de transaction', de: 'Transaktions-ID' };
      for (const [lang, first] of Object.entries(firsts)) {
        const localized = await service.request('GET', `/api/v1/widgets/transactions/export.csv?lang=${lang}&q=12.50`, {
          headers,
        });
        assert.equal(parseCsv(localized.text, lang === 'en' ? ',' : ';')[0]![0], first, lang);
      }
      const orders = parseCsv(
        (await service.request('GET', '/api/v1/widgets/transactions/export.csv?kind=sale', { headers })).text,
      ).map((r) => r[9]);
      assert.ok(orders.includes('\'=HYPERLINK("x")'), 'a formula gets an apostrophe');
      assert.ok(orders.includes('\'order "one", with =SUM(A1)') || orders.includes('order "one", with =SUM(A1)'));
      const bad = await service.request('GET', '/api/v1/widgets/transactions/export.csv?lang=it', { headers });
      assert.deepEqual([bad.status, bad.body.code], [400, 'invalid_request']);
    });

    test("a German export in Berlin time, cell by cell: dates a spreadsheet reads, the console's words, decimal commas, fee, net, currency, customer and description; pending ACH is no income", async () => {
      const shop = await approvedMerchant(service);
      const { session_token } = await consoleSession(service, shop.merchantKey, { export: true, refunds: true });
      const sale = await payment(service, shop.merchantKey, '1234.50', {
        orderId: 'bestellung-1',
        name: 'Jürgen Müller',
        email: 'jm@example.com',
        description: 'Café; "Spezial"',
      });
      assert.equal(
        (await consoleCall(service, session_token)('POST', `/${sale}/refund`, { amount: '234.50' })).status,
        200,
      );
      const ach = await payment(service, shop.merchantKey, '30.00', { ach: true, orderId: '=ach' });
      // Dates fixed in winter and summer time, to read them back in Berlin's.
      const winter = '2026-01-15T23:30:00.000Z';
      const summer = '2026-07-01T12:00:05.000Z';
      const stored = await service.store.transactions.find(shop.merchantId, sale);
      const refund = (await service.store.consoleListing.reversalsOf(shop.merchantId, sale))[0]!;
      await service.store.transactions.insert({
        ...stored!,
        id: 'txn_winter',
        order_id: 'winter',
        refunded_amount: 0,
        created_at: winter,
        completed_at: winter,
        settled_at: winter,
        request_id: null,
      });
      await service.store.transactions.insert({
        ...stored!,
        id: 'txn_summer',
        order_id: 'summer',
        refunded_amount: 0,
        created_at: summer,
        completed_at: summer,
        settled_at: summer,
        request_id: null,
      });
      const answer = await service.request(
        'GET',
        '/api/v1/widgets/transactions/export.csv?lang=de&tz=Europe/Berlin&sort=date&order=asc',
        { headers: { authorization: `Bearer ${session_token}` } },
      );
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual([...answer.bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 with a byte-order mark');
      const [header, ...rows] = parseCsv(answer.text, ';');
      assert.deepEqual(header, [
        'Transaktions-ID',
        'Datum (Europe/Berlin)',
        'Art',
        'Status',
        'Betrag',
        'Erstattet',
        'Netto',
        'Kartenmarke',
        'Letzte vier Ziffern',
        'Bestell-ID',
        'Gebühr',
        'Währung',
        'Kunde',
        'Beschreibung',
        'Erstattungsgrund',
      ]);
      const byId = new Map(rows.map((row) => [row[0], row]));
      assert.deepEqual(
        rows.slice(0, 2).map((row) => [row[0], row[1]]),
        [
          ['txn_winter', '2026-01-16 00:30:00'],
          ['txn_summer', '2026-07-01 14:00:05'],
        ],
      );
      const saleRow = (await service.store.transactions.find(shop.merchantId, sale))!;
      const comma = (minor: number) => (minor / 100).toFixed(2).replace('.', ',');
      const berlin = (iso: string) => new Date(iso).toLocaleString('sv-SE', { timeZone: 'Europe/Berlin' });
      assert.deepEqual(byId.get(sale), [
        sale,
        berlin(saleRow.created_at),
        'Verkauf',
        'Teilweise erstattet',
        '1234,50',
        '234,50',
        comma(saleRow.net_amount),
        'Visa',
        '4242',
        'bestellung-1',
        comma(saleRow.fee_amount),
        'USD',
        'Jürgen Müller <jm@example.com>',
        'Café; "Spezial"',
        '',
      ]);
      assert.ok(saleRow.fee_amount > 0, 'the sale has a fee to show');
      assert.deepEqual(byId.get(refund.id)!.slice(2, 7), [
        'Erstattung',
        'Abgeschlossen',
        '234,50',
        '0,00',
        comma(refund.net_amount),
      ]);
      assert.deepEqual(
        byId.get(refund.id)!.slice(12),
        ['Jürgen Müller <jm@example.com>', 'Café; "Spezial"', ''],
        "a refund names its original's customer and description",
      );
      assert.deepEqual(
        byId.get(ach)!.slice(2, 14),
        ['Verkauf', 'Ausstehend', '30,00', '0,00', '', 'ACH', '6789', "'=ach", '', 'USD', '', ''],
        'pending: no fee, no net',
      );
      const bad = await service.request('GET', '/api/v1/widgets/transactions/export.csv?tz=Mars/Olympus', {
        headers: { authorization: `Bearer ${session_token}` },
      });
      assert.deepEqual([bad.status, bad.body.code], [400, 'invalid_request'], bad.text);
      assert.match(bad.body.message, /tz must be a time zone such as Europe\/Berlin/);
    });

    test('the export needs the export feature; the client-credentials twin and paykit/client give the same CSV', async () => {
      const { session_token } = await consoleSession(service, merchantKey, {
        refunds: true,
        voids: true,
        captures: true,
        receipts: true,
      });
      const refused = await service.request('GET', '/api/v1/widgets/transactions/export.csv', {
        headers: { authorization: `Bearer ${session_token}` },
      });
      assert.deepEqual([refused.status, refused.body.code], [403, 'forbidden'], refused.text);
      const allowed = (await consoleSession(service, merchantKey, { export: true })).session_token;
      const widget = await service.request('GET', '/api/v1/widgets/transactions/export.csv?status=completed&lang=fr', {
        headers: { authorization: `Bearer ${allowed}` },
      });
      const twin = await service.api(
        'GET',
        `/merchant/transactions/export.csv?merchant_key=${encodeURIComponent(merchantKey)}&status=completed&lang=fr`,
      );
      assert.equal(twin.status, 200, twin.text);
      assert.equal(twin.text, widget.text);
      const viaClient = await partnerClient(service).transactions.exportTransactions(merchantKey, {
        status: 'completed',
        lang: 'fr',
      });
      assert.equal(`\uFEFF${viaClient}`, widget.text, 'the same, but for the byte-order mark that fetch reads away');
      await assert.rejects(
        partnerClient(service).transactions.exportTransactions('mk_nobody', {}),
        (error: Error & { status?: number }) => error.status === 404,
      );
      const other = await approvedMerchant(service);
      const theirs = await service.api(
        'GET',
        `/merchant/transactions/export.csv?merchant_key=${encodeURIComponent(other.merchantKey)}`,
      );
      assert.equal(parseCsv(theirs.text).length, 1, "another merchant's export has the header row alone");
    });
  });
}
