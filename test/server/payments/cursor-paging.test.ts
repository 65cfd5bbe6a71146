import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { testDatabases } from '../../support/databases.ts';
import { approvedMerchant, paidSale } from '../../support/payments.ts';

/**
 * Paging by cursor while payments land between pages (issue 31): every row that was there at the first page and
 * still matches is returned exactly once, and the rows written meanwhile (newer than any page read) do not push the
 * older ones onto the next page again, as they do with page numbers.
 */
for (const database of testDatabases()) {
  describe(`paging by cursor (${database})`, () => {
    let service: TestService;
    let merchantKey: string;
    before(async () => {
      service = await startService({ database });
      ({ merchantKey } = await approvedMerchant(service));
    });
    after(() => service.close());

    const list = (query: string) =>
      service.api('GET', `/merchant/transactions?merchant_key=${merchantKey}&limit=4${query}`);
    const refund = (transaction_id: string) =>
      service.api('POST', '/order/sales-return', {
        json: { merchant_key: merchantKey, transaction_id, amount: '1.00' },
      });

    test('neither skips nor repeats a row while sales and refunds land between pages', async () => {
      const before: string[] = [];
      for (let i = 0; i < 14; i++) before.push(await paidSale(service, merchantKey, '10.00'));
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      let byNumber = 0;
      do {
        const answer = await list(cursor ? `&cursor=${cursor}` : '');
        assert.equal(answer.status, 200, answer.text);
        seen.push(...answer.body.data.map((t: { transaction_id: string }) => t.transaction_id));
        assert.equal(answer.body.has_more, answer.body.next_cursor !== null);
        cursor = answer.body.next_cursor;
        // Between pages: a new sale and a refund of an old one, both newer than every row listed so far.
        await paidSale(service, merchantKey, '5.00');
        assert.equal((await refund(before[pages]!)).status, 200);
        pages++;
        // The same walk by page number shows a row of the previous page again: the new rows pushed it down.
        const numbered = await list(`&pageNumber=${pages + 1}`);
        if (numbered.body.data.some((t: { transaction_id: string }) => seen.includes(t.transaction_id))) byNumber++;
      } while (cursor && pages < 20);
      assert.equal(new Set(seen).size, seen.length, 'no row twice');
      assert.deepEqual(seen, [...before].reverse(), 'every sale there at the start, newest first, once');
      assert.ok(byNumber > 0, 'page numbers repeat rows under the same writes');
    });

    test('a cursor that no listing gave out is a 400, not a 500', async () => {
      const encoded = (place: unknown) => Buffer.from(JSON.stringify(place)).toString('base64url');
      for (const cursor of [
        'nope!',
        'WzEsMl0',
        encoded(['2026-01-01T00:00:00.000Z', -1]),
        encoded(['2026-01-01T00:00:00.000Z\u0000', 1]),
        encoded(['a', 1]),
        'x'.repeat(300),
      ]) {
        const answer = await list(`&cursor=${encodeURIComponent(cursor)}`);
        assert.equal(answer.status, 400, answer.text);
        assert.equal(answer.body.result, false);
      }
    });
  });
}
