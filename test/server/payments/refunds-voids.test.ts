import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { testDatabases } from '../../support/databases.ts';
import { approvedMerchant, eventsAbout, paidSale } from '../../support/payments.ts';

const REFUND_EVENT_FIELDS = [
  'Status',
  'amount',
  'linked_txn_id',
  'merchant_id',
  'order_createdfrom',
  'parent_transaction_id',
  'sales_id',
  'transaction_id',
  'txn_date',
  'txn_id',
  'type',
];
const VOID_EVENT_FIELDS = [
  'Status',
  'amount',
  'linked_txn_id',
  'merchant_id',
  'order_createdfrom',
  'sales_id',
  'transaction_id',
  'txn_date',
  'txn_id',
  'type',
];
const RECORD_FIELDS = [
  'Status',
  'amount',
  'linked_txn_id',
  'order_createdfrom',
  'sales_id',
  'transaction_id',
  'txn_date',
  'txn_id',
  'type',
];
const HOUR = 3600 * 1000;

for (const database of testDatabases()) {
  describe(`refunds, voids and settlement (${database})`, () => {
    let service: TestService;
    let merchantKey: string;
    let merchantId: string;
    before(async () => {
      service = await startService({ database });
      ({ merchantKey, merchantId } = await approvedMerchant(service));
    });
    after(() => service.close());

    const refund = (transaction_id: string, amount: string) =>
      service.api('POST', '/order/sales-return', { json: { merchant_key: merchantKey, transaction_id, amount } });
    const voidIt = (transaction_id: string) =>
      service.api('POST', '/order/sales-void', {
        form: { merchant_key: merchantKey, transaction_id, sub_merchant_key: '' },
      });

    test('partial refunds repeat within the original, each with its record and payment.refund', async () => {
      const sale = await paidSale(service, merchantKey, '100.00');
      const first = await refund(sale, '30.00');
      assert.equal(first.status, 200, first.text);
      assert.equal(first.body.message, 'Refund processed.');
      const record = first.body.data;
      assert.deepEqual(Object.keys(record).sort(), RECORD_FIELDS);
      assert.match(record.transaction_id, /^txn_/);
      assert.notEqual(record.transaction_id, sale);
      assert.deepEqual(
        {
          sales_id: record.sales_id,
          linked_txn_id: record.linked_txn_id,
          amount: record.amount,
          Status: record.Status,
          type: record.type,
          order_createdfrom: record.order_createdfrom,
        },
        {
          sales_id: record.transaction_id,
          linked_txn_id: sale,
          amount: 30,
          Status: 'Success',
          type: 'Refund',
          order_createdfrom: 'pay_link',
        },
      );
      const [event] = await eventsAbout(service, 'payment.refund', record.transaction_id);
      assert.deepEqual(Object.keys(event!.data).sort(), REFUND_EVENT_FIELDS);
      assert.deepEqual(event!.data, {
        merchant_id: merchantId,
        transaction_id: record.transaction_id,
        Status: 'Success',
        linked_txn_id: record.transaction_id,
        parent_transaction_id: sale,
        sales_id: record.transaction_id,
        order_createdfrom: 'pay_link',
        amount: 30,
        txn_id: record.txn_id,
        txn_date: record.txn_date,
        type: 'Refund',
      });

      assert.equal((await refund(sale, '50.00')).status, 200);
      const over = await refund(sale, '25.00');
      assert.deepEqual(
        [over.status, over.body],
        [
          400,
          {
            result: false,
            message: 'The amount should not be greater than the remaining amount.',
            code: 'invalid_request',
          },
        ],
      );
      assert.equal((await refund(sale, '20.00')).status, 200);
      const done = await refund(sale, '1.00');
      assert.deepEqual([done.status, done.body.message], [409, 'Refund already done. No refund allowed.']);

      const [original] = (
        await service.api('GET', `/merchant/transactions/${sale}`, { json: { merchant_key: merchantKey } })
      ).body.data;
      assert.equal(original.refunded_amount, '100.00');
    });

    test('the refund messages of the interface', async () => {
      const sale = await paidSale(service, merchantKey, '40.00');
      const cases: [string, string, number, string][] = [
        ['txn_nope', '1.00', 404, 'Payment method not found.'],
        [sale, '40.01', 400, 'Amount should not be greater than sales charge amount.'],
        [sale, '0', 400, 'amount must be more than zero: send the amount to move, such as "5.00".'],
      ];
      for (const [id, amount, status, message] of cases) {
        const answer = await refund(id, amount);
        assert.deepEqual([answer.status, answer.body.message], [status, message], `${id} ${amount}`);
      }
      const missing = await service.api('POST', '/order/sales-return', {
        json: { merchant_key: merchantKey, transaction_id: sale },
      });
      assert.equal(missing.body.message, 'Invalid request: amount is required.');
      const voided = await paidSale(service, merchantKey, '10.00');
      await voidIt(voided);
      assert.equal(
        (await refund(voided, '1.00')).body.message,
        'Payment method not found.',
        'a voided sale is not completed',
      );
    });

    test('a void before settlement: form-urlencoded or JSON, with payment.void', async () => {
      const sale = await paidSale(service, merchantKey, '25.00');
      const voided = await voidIt(sale);
      assert.equal(voided.status, 200, voided.text);
      assert.equal(voided.body.message, 'Transaction voided.');
      const record = voided.body.data;
      assert.deepEqual(
        { type: record.type, Status: record.Status, amount: record.amount, linked_txn_id: record.linked_txn_id },
        { type: 'Void', Status: 'Success', amount: 25, linked_txn_id: sale },
      );
      const [event] = await eventsAbout(service, 'payment.void', record.transaction_id);
      assert.deepEqual(Object.keys(event!.data).sort(), VOID_EVENT_FIELDS);
      assert.deepEqual(event!.data, {
        merchant_id: merchantId,
        transaction_id: record.transaction_id,
        Status: 'Success',
        linked_txn_id: sale,
        sales_id: record.transaction_id,
        order_createdfrom: 'pay_link',
        amount: 25,
        txn_id: record.txn_id,
        txn_date: record.txn_date,
        type: 'Void',
      });
      const again = await voidIt(sale);
      assert.deepEqual([again.status, again.body.message], [409, 'The transaction was already voided.']);

      const json = await paidSale(service, merchantKey, '5.00');
      const viaJson = await service.api('POST', '/order/sales-void', {
        json: { merchant_key: merchantKey, transaction_id: json, amount: '5.00' },
      });
      assert.equal(viaJson.status, 200);
      const refunded = await paidSale(service, merchantKey, '5.00');
      await refund(refunded, '1.00');
      assert.equal(
        (await voidIt(refunded)).body.message,
        'The transaction has refunds; refund the rest instead of voiding it.',
      );
    });

    test('settlement: by the batch or after 48 hours; then no void, but refunds', async () => {
      const batch = await paidSale(service, merchantKey, '10.00');
      const settle = await service.api('POST', '/sandbox/settle', { json: { merchant_key: merchantKey } });
      assert.equal(settle.status, 200);
      assert.ok(settle.body.data.settled >= 1);
      const late = await voidIt(batch);
      assert.deepEqual(
        [late.status, late.body.message],
        [409, 'The transaction has been settled, a void is not allowed.'],
      );
      assert.equal((await refund(batch, '10.00')).body.data.type, 'Refund', 'a settled sale is refunded, never voided');

      const aging = await paidSale(service, merchantKey, '10.00');
      const [before] = (
        await service.api('GET', `/merchant/transactions/${aging}`, { json: { merchant_key: merchantKey } })
      ).body.data;
      assert.equal(before.settled, false);
      await service.api('POST', '/sandbox/clock/advance', { json: { hours: 48 } });
      const [after] = (
        await service.api('GET', `/merchant/transactions/${aging}`, { json: { merchant_key: merchantKey } })
      ).body.data;
      assert.equal(after.settled, true);
      assert.equal((await voidIt(aging)).body.message, 'The transaction has been settled, a void is not allowed.');
    });

    test('rule 1: a full refund of an unsettled sale older than 24 hours is a void', async () => {
      const young = await paidSale(service, merchantKey, '60.00');
      assert.equal(
        (await refund(young, '60.00')).body.data.type,
        'Refund',
        'within 24 hours a full refund is a refund',
      );

      const old = await paidSale(service, merchantKey, '60.00');
      const partial = await paidSale(service, merchantKey, '60.00');
      service.clock.advance(25 * HOUR);
      const full = await refund(old, '60.00');
      assert.equal(full.status, 200);
      assert.equal(full.body.data.type, 'Void');
      assert.equal(
        full.body.message,
        'Refunded in full as a void: the transaction is older than 24 hours and not settled yet.',
      );
      const [voidEvent] = await eventsAbout(service, 'payment.void', full.body.data.transaction_id);
      assert.ok(voidEvent);
      // Asked for as a refund, it is announced as one too: the same record, marked as performed as a void.
      const refunds = await eventsAbout(service, 'payment.refund', full.body.data.transaction_id);
      assert.equal(refunds.length, 1);
      assert.deepEqual(refunds[0]!.data, {
        merchant_id: voidEvent.data.merchant_id,
        transaction_id: full.body.data.transaction_id,
        Status: 'Success',
        linked_txn_id: full.body.data.transaction_id,
        parent_transaction_id: old,
        sales_id: full.body.data.transaction_id,
        order_createdfrom: 'pay_link',
        amount: 60,
        txn_id: voidEvent.data.txn_id,
        txn_date: voidEvent.data.txn_date,
        type: 'Refund',
        performed_as: 'void',
      });

      assert.equal((await refund(partial, '20.00')).body.data.type, 'Refund', 'a partial refund stays a refund');
      // A void asked for as a void is announced as a void only.
      const direct = await paidSale(service, merchantKey, '15.00');
      const voided = await service.api('POST', '/order/sales-void', {
        form: { merchant_key: merchantKey, transaction_id: direct },
      });
      assert.equal(voided.status, 200, voided.text);
      assert.equal((await eventsAbout(service, 'payment.void', voided.body.data.transaction_id)).length, 1);
      assert.equal((await eventsAbout(service, 'payment.refund', voided.body.data.transaction_id)).length, 0);
    });

    test('the widgets’ table (the payments console, #32) lists sales with their refund and void records; its filters tell them apart', async () => {
      const { merchantKey: key } = await approvedMerchant(service);
      const standing = await paidSale(service, key, '20.00');
      const partly = await paidSale(service, key, '21.00');
      const voided = await paidSale(service, key, '22.00');
      const refund = (
        await service.api('POST', '/order/sales-return', {
          json: { merchant_key: key, transaction_id: partly, amount: '1.00' },
        })
      ).body.data.transaction_id;
      const voidRecord = (
        await service.api('POST', '/order/sales-void', { form: { merchant_key: key, transaction_id: voided } })
      ).body.data.transaction_id;
      const token = (await service.api('POST', '/widgets/sessions', { json: { merchant_key: key } })).body.data
        .session_token;
      const list = async (query: string) => {
        const listed = await service.request('GET', `/api/v1/widgets/transactions${query}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        return {
          rows: listed.body.data.items
            .map((t: { transaction_id: string; status: string; type: string }) => [t.transaction_id, t.status, t.type])
            .sort(),
          total: listed.body.data.totalCount,
        };
      };
      assert.deepEqual(await list(''), {
        rows: [
          [standing, 'completed', 'sale'],
          [partly, 'completed', 'sale'],
          [voided, 'voided', 'sale'],
          [refund, 'completed', 'refund'],
          [voidRecord, 'completed', 'void'],
        ].sort(),
        total: 5,
      });
      assert.deepEqual(await list('?kind=sale&status=completed'), {
        rows: [[standing, 'completed', 'sale']],
        total: 1,
      });
      assert.deepEqual(await list('?status=refunded'), { rows: [[partly, 'completed', 'sale']], total: 1 });
      assert.deepEqual(await list('?status=voided'), { rows: [[voided, 'voided', 'sale']], total: 1 });
    });

    test('fifty refunds at once never return more than was charged', async () => {
      const sale = await paidSale(service, merchantKey, '100.00');
      const answers = await Promise.all(Array.from({ length: 50 }, () => refund(sale, '7.00')));
      const accepted = answers.filter((a) => a.status === 200).length;
      assert.equal(accepted, 14, '14 × 7.00 = 98.00 fits, a 15th would not');
      for (const a of answers.filter((x) => x.status !== 200)) {
        assert.equal(a.body.message, 'The amount should not be greater than the remaining amount.');
      }
      const [original] = (
        await service.api('GET', `/merchant/transactions/${sale}`, { json: { merchant_key: merchantKey } })
      ).body.data;
      assert.equal(original.refunded_amount, '98.00');
      const refunds = (await service.store.events.listForClient(service.client.clientId)).filter(
        (e) => e.event_type === 'payment.refund' && e.data.parent_transaction_id === sale,
      );
      assert.equal(refunds.length, 14);
    });

    test('the listing: newest first, pages, date range, refunds with negative net', async () => {
      const fresh = await startService({ database });
      try {
        const { merchantKey: key } = await approvedMerchant(fresh);
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) ids.push(await paidSale(fresh, key, `${10 + i}.00`));
        const refunded = await fresh.api('POST', '/order/sales-return', {
          json: { merchant_key: key, transaction_id: ids[0], amount: '2.50' },
        });
        const list = await fresh.api('GET', '/merchant/transactions', {
          json: { merchant_key: key, limit: '4', pageNumber: 1 },
        });
        assert.equal(list.status, 200);
        assert.equal(list.body.total, 6);
        assert.equal(list.body.message, 'Transactions retrieved.');
        const [first] = list.body.data;
        assert.equal(first.transaction_id, refunded.body.data.transaction_id);
        assert.deepEqual(
          {
            type: first.type,
            amount: first.amount,
            net_amount: first.net_amount,
            fee_percentage: first.fee_percentage,
          },
          { type: 'refund', amount: '2.50', net_amount: -2.5, fee_percentage: '0.0000000' },
        );
        assert.deepEqual(
          list.body.data.slice(1).map((t: { transaction_id: string }) => t.transaction_id),
          [ids[4], ids[3], ids[2]],
        );
        const sale = list.body.data[1];
        assert.deepEqual(Object.keys(sale.other_details).sort(), ['auth_code', 'card_brand', 'last_four']);
        assert.match(sale.created_date, /^\d{4}-\d{2}-\d{2}T/);
        const page2 = await fresh.api(
          'GET',
          `/merchant/transactions?merchant_key=${encodeURIComponent(key)}&limit=4&pageNumber=2`,
        );
        assert.deepEqual(
          page2.body.data.map((t: { transaction_id: string }) => t.transaction_id),
          [ids[1], ids[0]],
        );

        const today = fresh.clock.now().toISOString().slice(0, 10);
        const inRange = await fresh.api('GET', '/merchant/transactions', {
          json: { merchant_key: key, from_date: today, to_date: today },
        });
        assert.equal(inRange.body.total, 6);
        const before = await fresh.api('GET', '/merchant/transactions', {
          json: { merchant_key: key, from_date: '2020-01-01', to_date: '2020-12-31' },
        });
        assert.deepEqual([before.body.total, before.body.data], [0, []]);
        const cases: [Record<string, unknown>, string][] = [
          [{ from_date: '2026-13-01' }, 'from_date must be a date written YYYY-MM-DD, e.g. "2026-01-31".'],
          [{ from_date: '2026-02-01', to_date: '2026-01-01' }, 'from_date must not be after to_date.'],
          [{ limit: '0' }, 'limit must be a whole number from 1 to 100.'],
          [{ limit: 'all' }, 'limit must be a whole number from 1 to 100.'],
          [{ pageNumber: 0 }, 'Invalid request: pageNumber must be >= 1.'],
        ];
        for (const [fields, message] of cases) {
          const answer = await fresh.api('GET', '/merchant/transactions', { json: { merchant_key: key, ...fields } });
          assert.deepEqual([answer.status, answer.body.message], [400, message], JSON.stringify(fields));
        }
        const missing = await fresh.api('GET', '/merchant/transactions/txn_nope', { json: { merchant_key: key } });
        assert.deepEqual([missing.status, missing.body.message], [404, 'No transaction txn_nope for this merchant.']);
      } finally {
        await fresh.close();
      }
    });
  });
}
