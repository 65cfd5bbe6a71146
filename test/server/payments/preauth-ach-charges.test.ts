import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { testDatabases } from '../../support/databases.ts';
import { approvedMerchant, eventsAbout, nextOrderId, TEST_CARD } from '../../support/payments.ts';
import { PREAUTH_ERRORS } from '../../../server/domain/preauth.ts';

const PREAUTH_FIELDS = ['amount', 'customer_id', 'guid', 'merchant_id', 'order_id'];
/** Added by Paykit to every preauth event (issue 44): the hold's history; hold-history.test.ts checks their values. */
const HISTORY_FIELDS = ['authorized_amount', 'captured_amount', 'history', 'released_amount'];
/** An event's data without the added history fields: the interface's fields, compared exactly. */
const interfaceFields = (data: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(data).filter(([key]) => !HISTORY_FIELDS.includes(key)));

for (const database of testDatabases()) {
  describe(`preauthorizations, ACH and stored customers (${database})`, () => {
    let service: TestService;
    let merchantKey: string;
    let merchantId: string;
    before(async () => {
      service = await startService({ database });
      ({ merchantKey, merchantId } = await approvedMerchant(service));
    });
    after(() => service.close());

    async function authorize(amount = '50.00', customerId?: string) {
      const path = customerId ? `/requests/${customerId}` : '/requests';
      const orderId = nextOrderId();
      const link = await service.api('POST', path, {
        json: { merchant_key: merchantKey, amount, order_id: orderId, preauth: true },
      });
      assert.equal(link.status, 200, link.text);
      const paid = await service.api('POST', '/sandbox/pay', {
        json: { pay_link: link.body.data.pay_link, method: 'card', ...TEST_CARD },
      });
      assert.equal(paid.status, 200, paid.text);
      assert.equal(paid.body.data.status, 'authorized');
      return { id: paid.body.data.transaction_id as string, orderId };
    }
    const call = (path: string, fields: Record<string, unknown>) =>
      service.api('POST', path, { json: { merchant_key: merchantKey, ...fields } });

    test('paying a preauth link authorizes without charging, with the preauth event', async () => {
      const { id, orderId } = await authorize('50.00');
      const [event] = await eventsAbout(service, 'preauth', id);
      assert.deepEqual(Object.keys(event!.data).sort(), [...PREAUTH_FIELDS, ...HISTORY_FIELDS].sort());
      assert.deepEqual(interfaceFields(event!.data), {
        merchant_id: merchantId,
        guid: id,
        amount: 50,
        order_id: orderId,
        customer_id: 0,
      });
      assert.deepEqual(await eventsAbout(service, 'payment.success', id), [], 'nothing is charged');
      const listed = (await service.api('GET', '/merchant/transactions', { json: { merchant_key: merchantKey } })).body
        .data;
      assert.ok(
        !listed.some((t: { transaction_id: string }) => t.transaction_id === id),
        'an authorization is not a transaction yet',
      );
      const ach = await service.api('POST', '/requests', {
        json: { merchant_key: merchantKey, amount: '5.00', order_id: nextOrderId(), preauth: true },
      });
      const byBank = await service.api('POST', '/sandbox/pay', {
        json: {
          pay_link: ach.body.data.pay_link,
          method: 'ach',
          routing_number: '110000000',
          account_number: '000123456789',
        },
      });
      assert.equal(byBank.body.message, 'This payment request does not accept bank (ACH) payments.');
    });

    test('update raises and lowers, refusing a stale amount with Amount mismatch', async () => {
      const { id, orderId } = await authorize('50.00');
      const up = await call('/preauth/update', {
        transaction_id: id,
        last_authorized_amount: '50.00',
        new_authorized_amount: '65.00',
      });
      assert.equal(up.status, 200, up.text);
      assert.equal(up.body.message, 'Authorized amount raised to 65.00.');
      assert.deepEqual(up.body.data, {
        transaction_id: id,
        order_id: orderId,
        previous_amount: '50.00',
        authorized_amount: '65.00',
        change: 'increment',
      });
      const [increment] = await eventsAbout(service, 'preauth.increment', id);
      assert.deepEqual(interfaceFields(increment!.data), {
        merchant_id: merchantId,
        guid: id,
        amount: 65,
        order_id: orderId,
        customer_id: 0,
      });

      const stale = await call('/preauth/update', {
        transaction_id: id,
        last_authorized_amount: '50.00',
        new_authorized_amount: '40.00',
      });
      assert.deepEqual(
        [stale.status, stale.body.message],
        [409, 'Amount mismatch: last_authorized_amount must equal the amount authorized now'],
      );
      const down = await call('/preauth/update', {
        transaction_id: id,
        last_authorized_amount: '65.00',
        new_authorized_amount: '40.00',
      });
      assert.equal(down.body.data.change, 'decrement');
      const [decrement] = await eventsAbout(service, 'preauth.decrement', id);
      assert.equal(decrement!.data.amount, 40);
      const same = await call('/preauth/update', {
        transaction_id: id,
        last_authorized_amount: '40.00',
        new_authorized_amount: '40.00',
      });
      assert.equal(same.body.message, 'new_authorized_amount equals the amount authorized now: nothing to change.');
      const bad = await call('/preauth/update', {
        transaction_id: id,
        last_authorized_amount: '40.00',
        new_authorized_amount: '-1',
      });
      assert.equal(
        bad.body.message,
        'new_authorized_amount must be more than zero: send the amount to move, such as "25.00".',
      );
    });

    test('a hold is readable by its id and listable, in every state, with the amount update needs', async () => {
      const { id, orderId } = await authorize('30.00');
      const read = (holdId: string) =>
        service.api('GET', `/preauth/${holdId}`, { json: { merchant_key: merchantKey } });
      const open = await read(id);
      assert.equal(open.status, 200, open.text);
      assert.deepEqual(
        { ...open.body.data, created_date: undefined, history: undefined },
        {
          transaction_id: id,
          order_id: orderId,
          amount: '30.00',
          status: 'authorized',
          customer_id: '',
          card_brand: 'Visa',
          last_four: '4242',
          created_date: undefined,
          captured_transaction_id: null,
          authorized_amount: '30.00',
          captured_amount: null,
          released_amount: null,
          history: undefined,
        },
      );
      // The amount read is what /preauth/update takes as last_authorized_amount.
      await call('/preauth/update', {
        transaction_id: id,
        last_authorized_amount: open.body.data.amount,
        new_authorized_amount: '35.00',
      });
      assert.equal((await read(id)).body.data.amount, '35.00');
      const captured = await call('/preauth/capture', { transaction_id: id });
      assert.deepEqual(
        [(await read(id)).body.data.status, (await read(id)).body.data.captured_transaction_id],
        ['captured', captured.body.data.transaction_id],
      );
      const released = await authorize('12.00');
      await call('/preauth/void', { transaction_id: released.id });
      assert.equal((await read(released.id)).body.data.status, 'voided');

      const all = await service.api('GET', '/preauth', { json: { merchant_key: merchantKey, perPage: 100 } });
      assert.equal(all.status, 200, all.text);
      const byId = new Map(
        all.body.data.items.map((hold: { transaction_id: string; status: string }) => [
          hold.transaction_id,
          hold.status,
        ]),
      );
      assert.deepEqual([byId.get(id), byId.get(released.id)], ['captured', 'voided']);
      assert.equal(all.body.data.totalCount, all.body.data.items.length);
      const onlyVoided = await service.api('GET', '/preauth', {
        json: { merchant_key: merchantKey, status: 'voided' },
      });
      assert.ok(onlyVoided.body.data.items.every((hold: { status: string }) => hold.status === 'voided'));
      assert.ok(
        onlyVoided.body.data.items.some((hold: { transaction_id: string }) => hold.transaction_id === released.id),
      );
      // A sale is not a hold, and another merchant's hold is as unknown as a made-up one.
      assert.equal((await read(captured.body.data.transaction_id)).status, 404);
      assert.deepEqual(
        [(await read('txn_nope')).status, (await read('txn_nope')).body.message],
        [404, 'Authorization not found'],
      );
      const other = await approvedMerchant(service);
      assert.equal(
        (await service.api('GET', `/preauth/${id}`, { json: { merchant_key: other.merchantKey } })).status,
        404,
      );
    });

    test('capture charges the authorized amount once, with preauth.charge', async () => {
      const { id, orderId } = await authorize('80.00');
      await call('/preauth/update', {
        transaction_id: id,
        last_authorized_amount: '80.00',
        new_authorized_amount: '100.00',
      });
      const mismatch = await call('/preauth/capture', { transaction_id: id, last_authorized_amount: '80.00' });
      assert.deepEqual(
        [mismatch.status, mismatch.body.message],
        [409, 'Amount mismatch: last_authorized_amount must equal the amount authorized now'],
      );
      const captured = await call('/preauth/capture', { transaction_id: id });
      assert.equal(captured.status, 200, captured.text);
      const data = captured.body.data;
      assert.deepEqual(
        {
          Status: data.Status,
          Account: data.Account,
          Brand: data.Brand,
          amount: data.amount,
          Authorized: data.Authorized,
          orderid: data.orderid,
          net_amount: data.net_amount,
        },
        {
          Status: 'Approved',
          Account: '4242',
          Brand: 'Visa',
          amount: '100.00',
          Authorized: 100,
          orderid: orderId,
          net_amount: 96.8,
        },
      );
      assert.match(data.AuthCode, /^[A-Z0-9]{6}$/);
      assert.notEqual(data.transaction_id, id);
      const [charge] = await eventsAbout(service, 'preauth.charge', data.transaction_id);
      assert.deepEqual(Object.keys(interfaceFields(charge!.data)).sort(), [
        'amount',
        'guid',
        'link_id',
        'merchant_id',
        'net_amount',
        'order_id',
      ]);
      assert.deepEqual(interfaceFields(charge!.data), {
        merchant_id: merchantId,
        link_id: id,
        guid: data.transaction_id,
        amount: 100,
        order_id: orderId,
        net_amount: 96.8,
      });
      const [sale] = (
        await service.api('GET', `/merchant/transactions/${data.transaction_id}`, {
          json: { merchant_key: merchantKey },
        })
      ).body.data;
      assert.deepEqual([sale.status, sale.type, sale.amount], ['completed', 'sale', '100.00']);

      const twice = await call('/preauth/capture', { transaction_id: id });
      // It exists, captured: a conflict that says so, not the interface's `Authorization not found` (docs/decisions.md).
      assert.deepEqual(
        [twice.status, twice.body],
        [409, { result: false, message: PREAUTH_ERRORS.captured, code: 'conflict' }],
      );
      for (const [path, fields] of [
        ['/preauth/void', {}],
        ['/preauth/update', { last_authorized_amount: '100.00', new_authorized_amount: '120.00' }],
      ] as const) {
        const afterCapture = await call(path, { transaction_id: id, ...fields });
        assert.deepEqual(
          [afterCapture.status, afterCapture.body],
          [409, { result: false, message: PREAUTH_ERRORS.captured, code: 'conflict' }],
          path,
        );
      }
      const unknown = await call('/preauth/capture', { transaction_id: 'txn_nope' });
      assert.deepEqual(
        [unknown.status, unknown.body],
        [404, { result: false, message: 'Authorization not found', code: 'not_found' }],
      );
      const saleIsNoAuth = await call('/preauth/capture', { transaction_id: data.transaction_id });
      assert.equal(saleIsNoAuth.body.message, 'Authorization not found');
    });

    test('ten captures at once charge once', async () => {
      const { id } = await authorize('30.00');
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => call('/preauth/capture', { transaction_id: id })),
      );
      assert.equal(answers.filter((a) => a.status === 200).length, 1);
      assert.equal(
        (await service.store.events.listForClient(service.client.clientId)).filter(
          (e) => e.event_type === 'preauth.charge' && e.data.link_id === id,
        ).length,
        1,
      );
    });

    test('a voided authorization cannot be captured or changed', async () => {
      const { id, orderId } = await authorize('20.00');
      const voided = await call('/preauth/void', { transaction_id: id });
      assert.equal(voided.status, 200, voided.text);
      assert.deepEqual(voided.body, {
        result: true,
        message: 'Authorization voided.',
        data: { transaction_id: id, order_id: orderId, amount: '20.00', Status: 'Voided' },
      });
      for (const [path, fields] of [
        ['/preauth/capture', {}],
        ['/preauth/update', { last_authorized_amount: '20.00', new_authorized_amount: '25.00' }],
        ['/preauth/void', {}],
      ] as const) {
        const refused = await call(path, { transaction_id: id, ...fields });
        assert.deepEqual(
          [refused.status, refused.body.message, refused.body.code],
          [409, PREAUTH_ERRORS.voided, 'conflict'],
          path,
        );
      }
    });

    test('ACH: approved completes with ach.update and payment.success; declined leaves a reversal', async () => {
      const pay = async () => {
        const link = await call('/requests', { amount: '40.00', order_id: nextOrderId() });
        return (
          await service.api('POST', '/sandbox/pay', {
            json: {
              pay_link: link.body.data.pay_link,
              method: 'ach',
              routing_number: '110000000',
              account_number: '000123456789',
              name: 'Pat',
            },
          })
        ).body.data.transaction_id as string;
      };
      const good = await pay();
      const approved = await call('/update-ach', { transaction_id: good, new_status: 'approved' });
      assert.deepEqual([approved.status, approved.body], [200, { result: true, message: 'Success.' }]);
      const [update] = await eventsAbout(service, 'ach.update', good);
      assert.deepEqual(update!.data, {
        merchant_id: merchantId,
        status: 'Approved',
        tran_id: good,
        message: 'Approved',
      });
      assert.equal((await eventsAbout(service, 'payment.success', good)).length, 1);
      assert.equal(
        (await call('/update-ach', { transaction_id: good, new_status: 'declined' })).body.message,
        `ACH transaction ${good} was already approved.`,
      );

      const bad = await pay();
      assert.equal((await call('/update-ach', { transaction_id: bad, new_status: 'declined' })).status, 200);
      const [declined] = await eventsAbout(service, 'ach.update', bad);
      assert.deepEqual(Object.keys(declined!.data).sort(), [
        'merchant_id',
        'message',
        'return_transaction_id',
        'status',
        'tran_id',
      ]);
      assert.deepEqual(
        { status: declined!.data.status, message: declined!.data.message },
        { status: 'Declined', message: 'Insufficient Funds' },
      );
      const reversalId = declined!.data.return_transaction_id as string;
      const [reversal] = (
        await service.api('GET', `/merchant/transactions/${reversalId}`, { json: { merchant_key: merchantKey } })
      ).body.data;
      assert.deepEqual(
        [reversal.type, reversal.parent_transaction_id, reversal.net_amount],
        ['ach_return', bad, -39.68],
      );

      const other = await call('/update-ach', { transaction_id: bad, new_status: 'pending' });
      assert.deepEqual(
        [other.status, other.body.message],
        [400, 'Invalid request: new_status must be one of: "approved", "declined".'],
      );
      const card = await call('/update-ach', { transaction_id: 'txn_nope', new_status: 'approved' });
      assert.deepEqual([card.status, card.body.message], [404, 'No ACH transaction txn_nope for this merchant.']);
    });

    test('a stored customer pays a link, the card is saved, and the merchant charges it again', async () => {
      const customer = await call('/customers/add', {
        first_name: 'Sam',
        last_name: 'Saved',
        email: 'sam@example.com',
        phone_number: '+14155550142',
      });
      const customerId = customer.body.data.customer_id;
      const charge = (fields: Record<string, unknown>) =>
        service.api('POST', `/customers/charge/${customerId}`, {
          json: { merchant_key: merchantKey, amount: 25.5, order_id: nextOrderId(), ...fields },
        });
      const none = await charge({});
      assert.equal(none.status, 409);
      assert.equal(
        none.body.message,
        'This customer has no saved card yet: send them a payment request (POST /requests/{customerId}); the card they pay with is saved.',
      );

      const request = await call(`/requests/${customerId}`, { amount: '10.00', order_id: nextOrderId() });
      assert.equal(request.status, 200, request.text);
      assert.equal(request.body.message, 'A text request has been sent to the customer.');
      const { sales_id, pay_link } = request.body.data;
      const [sms] = (await service.api('GET', '/sandbox/messages')).body.data.filter(
        (m: { channel: string }) => m.channel === 'sms',
      );
      assert.deepEqual([sms.recipient, sms.pay_link], ['+14155550142', pay_link]);
      const paid = await service.api('POST', '/sandbox/pay', { json: { pay_link, method: 'card', ...TEST_CARD } });
      assert.equal(paid.body.data.transaction_id, sales_id);

      const charged = await service.api('POST', `/customers/charge/${customerId}`, {
        raw: JSON.stringify({ merchant_key: merchantKey, amount: 25.5, order_id: nextOrderId() }),
        headers: { 'content-type': 'text/plain' },
      });
      assert.equal(charged.status, 200, charged.text);
      assert.equal(charged.body.result, true);
      assert.match(charged.body.transaction_id, /^txn_/);
      const [sale] = (
        await service.api('GET', `/merchant/transactions/${charged.body.transaction_id}`, {
          json: { merchant_key: merchantKey },
        })
      ).body.data;
      assert.deepEqual([sale.amount, sale.other_details.lastFourDigits, sale.status], ['25.50', '4242', 'completed']);
      const [event] = await eventsAbout(service, 'payment.success', charged.body.transaction_id);
      assert.ok(event && !('link_id' in event.data), 'no link, no link_id');

      assert.equal(
        (
          await service.api('POST', '/customers/charge/c_nope', {
            json: { merchant_key: merchantKey, amount: 1, order_id: 'x' },
          })
        ).status,
        404,
      );
      assert.equal(
        (await charge({ amount: 0 })).body.message,
        'amount must be more than zero: send the amount to move, such as "25.00".',
      );
      // The order id is the charge's retry key: kept exactly as sent, or refused, never trimmed into another's.
      const padded = await charge({ order_id: ` ${nextOrderId()}` });
      assert.deepEqual(
        [padded.status, padded.body.message],
        [400, 'order_id must not begin or end with spaces: it is stored exactly as sent, so send it without them.'],
      );
      const unknownCustomer = await call('/requests/c_nope', { amount: '1.00', order_id: nextOrderId() });
      assert.deepEqual(
        [unknownCustomer.status, unknownCustomer.body.message],
        [404, 'No customer c_nope for this merchant.'],
      );
    });

    test('the sandbox clock moves forward and stays moved', async () => {
      const before = service.clock.now().getTime();
      const moved = await service.api('POST', '/sandbox/clock/advance', { json: { hours: 2 } });
      assert.equal(moved.status, 200);
      assert.ok(Date.parse(moved.body.data.now) - before >= 2 * 3600 * 1000);
      assert.equal(await service.store.settings.get('sandbox_clock_offset_ms'), String(service.clock.offset));
      const back = await service.api('POST', '/sandbox/clock/advance', { json: { hours: -1 } });
      assert.deepEqual([back.status, back.body.message], [400, 'Invalid request: hours must be > 0.']);
    });
  });
}

describe('sandbox-only payment helpers in production', () => {
  let service: TestService;
  before(async () => {
    service = await startService({ environment: 'production' });
  });
  after(() => service.close());

  test('pay, clock, settle, messages and update-ach are refused', async () => {
    for (const [method, path] of [
      ['POST', '/sandbox/pay'],
      ['POST', '/sandbox/clock/advance'],
      ['POST', '/sandbox/settle'],
      ['GET', '/sandbox/messages'],
      ['POST', '/update-ach'],
    ]) {
      const answer = await service.api(method!, path!, { json: {} });
      assert.deepEqual(
        [answer.status, answer.body.result, answer.body.message],
        [403, false, 'This call exists in the sandbox only.'],
        path,
      );
    }
  });
});
