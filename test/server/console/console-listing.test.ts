import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { approvedMerchant, nextOrderId } from '../../support/payments.ts';
import { testDatabases } from '../../support/databases.ts';
import { consoleCall, consoleSession, payment } from '../../support/console.ts';

type Item = {
  transaction_id: string;
  created_date: string;
  amount: string;
  card_brand: string;
  last_four: string;
  status: string;
  type: string;
  order_id: string;
  refunded_amount: string;
  refundable_amount: string;
  voidable_until: string | null;
  capturable: boolean;
};

/** The console's listing, filters, search and sort over HTTP, each checked against a filter of the whole listing. */
for (const database of testDatabases()) {
  describe(`the console's listing and details (${database})`, () => {
    let service: TestService;
    let merchantKey: string;
    let call: ReturnType<typeof consoleCall>;
    const ids = {} as Record<'small' | 'large' | 'refunded' | 'voided' | 'achPending' | 'achDeclined' | 'hold', string>;
    before(async () => {
      service = await startService({ database });
      ({ merchantKey } = await approvedMerchant(service));
      const { session_token } = await consoleSession(service, merchantKey, {
        refunds: true,
        voids: true,
        captures: true,
      });
      call = consoleCall(service, session_token);
      ids.small = await payment(service, merchantKey, '12.50', { orderId: 'order-small' });
      ids.large = await payment(service, merchantKey, '250.00', { email: 'Ann.Lee@Shop.example' });
      ids.refunded = await payment(service, merchantKey, '80.00');
      ids.voided = await payment(service, merchantKey, '45.00');
      ids.achPending = await payment(service, merchantKey, '30.00', { ach: true });
      ids.achDeclined = await payment(service, merchantKey, '31.00', { ach: true });
      ids.hold = await payment(service, merchantKey, '60.00', { preauth: true });
      for (let i = 0; i < 6; i++) await payment(service, merchantKey, `${10 + i}.00`);
      assert.equal((await call('POST', `/${ids.refunded}/refund`, { amount: '20.00' })).status, 200);
      assert.equal((await call('POST', `/${ids.voided}/void`)).status, 200);
      const declined = await service.api('POST', '/update-ach', {
        json: { merchant_key: merchantKey, transaction_id: ids.achDeclined, new_status: 'declined' },
      });
      assert.equal(declined.status, 200, declined.text);
      const other = await approvedMerchant(service);
      await payment(service, other.merchantKey, '12.50');
    });
    after(() => service.close());

    /** Every page of a listing, by cursor, three rows a page; each page's totalCount. */
    async function allPages(query: string): Promise<{ items: Item[]; totals: number[] }> {
      const items: Item[] = [];
      const totals: number[] = [];
      let cursor: string | null = null;
      for (let pages = 0; pages < 50; pages++) {
        const answer = await call('GET', `?perPage=3&${query}${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(answer.status, 200, `${query}: ${answer.text}`);
        items.push(...answer.body.data.items);
        totals.push(answer.body.data.totalCount);
        cursor = answer.body.data.next_cursor;
        assert.equal(answer.body.data.has_more, cursor !== null);
        if (!cursor) return { items, totals };
      }
      throw new Error('more than 50 pages');
    }

    test('the listing: sales, refunds, voids and ACH returns of this merchant only, newest first, with what each may still become', async () => {
      const { items, totals } = await allPages('');
      assert.deepEqual(new Set(items.map((i) => i.type)), new Set(['sale', 'refund', 'void', 'ach_return']));
      assert.equal(items.length, 15, '12 sales (13 payments less the hold), a refund, a void and an ACH return');
      assert.ok(totals.every((t) => t === 15));
      const dates = items.map((i) => i.created_date);
      assert.deepEqual(dates, [...dates].sort().reverse());
      const byId = new Map(items.map((i) => [i.transaction_id, i]));
      assert.deepEqual(
        [
          byId.get(ids.refunded)!.refunded_amount,
          byId.get(ids.refunded)!.refundable_amount,
          byId.get(ids.refunded)!.voidable_until,
        ],
        ['20.00', '60.00', null],
      );
      const fresh = byId.get(ids.small)!;
      assert.equal(fresh.refundable_amount, '12.50');
      assert.equal(Date.parse(fresh.voidable_until!) - Date.parse(fresh.created_date) > 47 * 3_600_000, true);
      assert.equal(byId.get(ids.voided)!.status, 'voided');
      assert.equal(byId.get(ids.voided)!.refundable_amount, '0.00');
      assert.equal(byId.get(ids.achPending)!.status, 'pending');
      assert.equal(byId.get(ids.achDeclined)!.status, 'declined');
      assert.ok(!byId.has(ids.hold));
    });

    test('each filter and search narrows the rows exactly as a filter of the whole listing, on every page', async () => {
      const all = (await allPages('')).items;
      const cases: [string, (i: Item) => boolean][] = [
        ['kind=sale', (i) => i.type === 'sale'],
        ['kind=refund', (i) => i.type === 'refund'],
        ['kind=void', (i) => i.type === 'void'],
        ['status=completed', (i) => i.status === 'completed' && i.refunded_amount === '0.00'],
        ['status=refunded', (i) => i.type === 'sale' && i.refunded_amount !== '0.00'],
        ['status=voided', (i) => i.status === 'voided'],
        ['status=pending', (i) => i.status === 'pending'],
        ['status=declined', (i) => i.status === 'declined'],
        ['card_brand=visa', (i) => i.card_brand === 'Visa'],
        ['card_brand=ach', (i) => i.card_brand === 'ACH'],
        ['card_brand=amex', () => false],
        [
          'kind=sale&card_brand=visa&status=completed',
          (i) =>
            i.type === 'sale' && i.card_brand === 'Visa' && i.status === 'completed' && i.refunded_amount === '0.00',
        ],
        ['q=12.50', (i) => i.amount === '12.50'],
        ['q=order-small', (i) => i.order_id === 'order-small'],
        [`q=${ids.large}`, (i) => i.transaction_id === ids.large],
        ['q=4242', (i) => i.last_four === '4242'],
        ['q=6789', (i) => i.last_four === '6789'],
        ['q=nothing-like-this', () => false],
        ['q=ORDER-SMALL', (i) => i.order_id === 'order-small'],
        ['q=Order-Sm', (i) => i.order_id === 'order-small'],
        ['q=ann.lee@SHOP.example', (i) => i.transaction_id === ids.large],
        ['q=ann.lee@shop', () => false],
        ['q=12.50&kind=sale&status=completed&card_brand=visa', (i) => i.amount === '12.50'],
        ['q=4242&status=refunded', (i) => i.last_four === '4242' && i.type === 'sale' && i.refunded_amount !== '0.00'],
        ['kind=refund&status=voided', () => false],
        [`from_date=${all[0]!.created_date.slice(0, 10)}&to_date=${all[0]!.created_date.slice(0, 10)}`, () => true],
        ['from_date=2000-01-01&to_date=2000-01-02', () => false],
      ];
      for (const [query, keep] of cases) {
        const expected = all.filter(keep).map((i) => i.transaction_id);
        const { items, totals } = await allPages(query);
        assert.deepEqual(
          items.map((i) => i.transaction_id),
          expected,
          query,
        );
        assert.ok(
          totals.every((t) => t === expected.length),
          `${query}: totalCount ${totals} for ${expected.length} rows`,
        );
      }
    });

    test('sort by amount either way, ties by insertion; by date ascending', async () => {
      const all = (await allPages('')).items;
      const desc = (await allPages('sort=amount')).items;
      const amounts = desc.map((i) => Number(i.amount));
      assert.deepEqual(
        amounts,
        [...amounts].sort((a, b) => b - a),
      );
      assert.equal(desc.length, all.length);
      const asc = (await allPages('sort=amount&order=asc')).items;
      assert.deepEqual(
        asc.map((i) => i.transaction_id),
        [...desc].reverse().map((i) => i.transaction_id),
      );
      const oldest = (await allPages('order=asc')).items;
      assert.deepEqual(
        oldest.map((i) => i.transaction_id),
        [...all].reverse().map((i) => i.transaction_id),
      );
      const page2 = await call('GET', '?perPage=3&page=2&sort=amount');
      assert.deepEqual(
        page2.body.data.items.map((i: Item) => i.transaction_id),
        desc.slice(3, 6).map((i) => i.transaction_id),
        'page numbers too',
      );
    });

    test('holds: kind=hold lists them, capturable while authorized', async () => {
      const { items } = await allPages('kind=hold');
      assert.deepEqual(
        items.map((i) => [i.transaction_id, i.type, i.status, i.capturable]),
        [[ids.hold, 'preauth', 'authorized', true]],
      );
    });

    test('bad values are 400 invalid_request', async () => {
      const first = await call('GET', '?perPage=3');
      for (const query of [
        'status=lost',
        'kind=preauth',
        'card_brand=Visa',
        'sort=name',
        'order=up',
        `q=${'x'.repeat(101)}`,
        'from_date=2026-13-01',
        'perPage=0',
        `sort=amount&cursor=${first.body.data.next_cursor}`,
        'cursor=bm9wZQ',
        'page=102&perPage=100',
        'q=order%00small',
        'q=a%09b',
      ]) {
        const answer = await call('GET', `?${query}`);
        assert.deepEqual([answer.status, answer.body.code], [400, 'invalid_request'], `${query}: ${answer.text}`);
      }
    });

    test('details: the timeline and the refunds; a void, ACH decisions and a capture in theirs', async () => {
      const refunded = await call('GET', `/${ids.refunded}`);
      assert.equal(refunded.status, 200, refunded.text);
      assert.deepEqual(
        refunded.body.data.timeline.map((s: { what: string }) => s.what),
        ['created', 'authorized', 'captured', 'refunded'],
      );
      assert.deepEqual(
        refunded.body.data.refunds.map((r: { amount: string }) => r.amount),
        ['20.00'],
      );
      const voided = await call('GET', `/${ids.voided}`);
      assert.deepEqual(
        voided.body.data.timeline.map((s: { what: string }) => s.what),
        ['created', 'authorized', 'captured', 'voided'],
      );
      assert.deepEqual(voided.body.data.refunds, []);
      const declined = await call('GET', `/${ids.achDeclined}`);
      assert.deepEqual(
        declined.body.data.timeline.map((s: { what: string }) => s.what),
        ['created', 'ach_pending', 'ach_declined'],
      );
      const hold = await payment(service, merchantKey, '70.00', { preauth: true });
      const captured = await call('POST', `/${hold}/capture`, { amount: '65.00' });
      assert.equal(captured.status, 200, captured.text);
      assert.deepEqual(
        captured.body.data.timeline.map((s: { what: string; amount?: string }) => [s.what, s.amount]),
        [
          ['created', '70.00'],
          ['authorized', '70.00'],
          ['captured', '65.00'],
          ['released', '5.00'],
        ],
        'the hold as authorized, then what the capture charged and released (issue 44)',
      );
      assert.equal(captured.body.data.status, 'captured');
      assert.equal(captured.body.data.capturable, false);
      assert.equal((await call('GET', '/txn_nope')).status, 404);
      const other = await payment(service, merchantKey, '80.00', { preauth: true });
      const raised = await call('POST', `/${other}/adjust`, { amount: '95.00' });
      assert.deepEqual(
        [raised.status, raised.body.data.amount, raised.body.data.capturable],
        [200, '95.00', true],
        raised.text,
      );
      const same = await call('POST', `/${other}/adjust`, { amount: '95.00' });
      assert.deepEqual([same.status, same.body.code], [400, 'invalid_request']);
      const missing = await call('POST', `/${other}/adjust`, {});
      assert.deepEqual([missing.status, missing.body.code], [400, 'invalid_request']);
      assert.equal((await call('POST', `/${other}/release`)).body.data.status, 'voided');
      const released = await call('POST', `/${other}/capture`, {});
      assert.deepEqual(
        [released.status, released.body.code],
        [409, 'conflict'],
        'a released hold holds nothing to capture',
      );
    });

    test('settled: the timeline says so, a void is refused with the rule, undo refunds', async () => {
      const id = await payment(service, merchantKey, '22.00', { orderId: nextOrderId() });
      await service.api('POST', '/sandbox/settle', { json: { merchant_key: merchantKey } });
      const details = await call('GET', `/${id}`);
      assert.equal(details.body.data.voidable_until, null);
      assert.ok(details.body.data.timeline.some((s: { what: string }) => s.what === 'settled'));
      const refused = await call('POST', `/${id}/void`);
      assert.deepEqual(
        [refused.status, refused.body.code, refused.body.message],
        [409, 'conflict', 'This payment has settled, so it can no longer be voided: refund it instead.'],
        "the rule in the merchant's words, with what to do (issue 44)",
      );
      const tooMuch = await call('POST', `/${id}/refund`, { amount: '50.00' });
      assert.deepEqual(
        [tooMuch.status, tooMuch.body.code, tooMuch.body.message],
        [400, 'invalid_request', 'Refund at most 22.00: that is what is left of this payment.'],
      );
      const badAmount = await call('POST', `/${id}/refund`, { amount: 'lots' });
      assert.deepEqual([badAmount.status, badAmount.body.code], [400, 'invalid_request']);
      const undone = await call('POST', `/${id}/undo`);
      assert.deepEqual(
        [undone.status, undone.body.data.undone_as, undone.body.data.refundable_amount],
        [200, 'refund', '0.00'],
      );
      const again = await call('POST', `/${id}/undo`);
      assert.deepEqual([again.status, again.body.code], [409, 'conflict']);
    });
  });
}
