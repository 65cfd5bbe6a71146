import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { testDatabases } from '../../support/databases.ts';
import { approvedMerchant, nextOrderId, TEST_CARD } from '../../support/payments.ts';
import { consoleCall, consoleSession } from '../../support/console.ts';
import { readConfig } from '../../../server/platform/config.ts';

const UNDER =
  'amount must be at least 0.50: the smallest payment this platform takes, so that no sale goes to its fee.';

for (const database of testDatabases()) {
  describe(`the minimum payment (${database})`, () => {
    let service: TestService;
    let merchantKey: string;
    let publicKey: string;
    before(async () => {
      service = await startService({ database });
      ({ merchantKey } = await approvedMerchant(service));
      publicKey = (await service.api('GET', '/merchant')).body.data[0].public_data.public_key;
    });
    after(() => service.close());

    const call = (path: string, fields: Record<string, unknown>) =>
      service.api('POST', path, { json: { merchant_key: merchantKey, ...fields } });
    const refused = (
      answer: { status: number; body: { result: boolean; code: string; message: string } },
      message = UNDER,
    ) =>
      assert.deepEqual(
        [answer.status, answer.body.result, answer.body.code, answer.body.message],
        [400, false, 'invalid_request', message],
      );
    const countOf = async () => (await service.api('GET', '/sandbox/messages')).body.data.length as number;

    test('a pay link, a customer request, a QR code and the widgets refuse 0.49 and take 0.50; the total counts, after the discount', async () => {
      const messages = await countOf();
      refused(await call('/requests', { amount: '0.49', order_id: nextOrderId(), phone_number: '+14155550199' }));
      refused(await call('/requests', { amount: '0.49', order_id: nextOrderId(), preauth: true }));
      refused(await call('/order/api-qr_code_link', { amount: '0.10', order_id: nextOrderId() }));
      refused(
        await call('/requests', { amount: '1.00', discount: '0.60', order_id: nextOrderId() }),
        'amount - discount + surcharge + tax must be at least 0.50: the smallest payment this platform takes, so that no sale goes to its fee.',
      );
      refused(await service.request('POST', `/api/v1/widgets/${publicKey}/pay-links`, { json: { amount: '0.49' } }));
      refused(
        await service.request('POST', `/api/v1/widgets/${publicKey}/payment-requests`, {
          json: { amount: '0.49', recipient_phone: '+14155550199' },
        }),
      );
      assert.equal(await countOf(), messages, 'no text went out');
      assert.equal((await call('/requests', { amount: '0.50', order_id: nextOrderId() })).status, 200);
    });

    test('a stored customer charge, a hold raised or lowered and a console capture below it are refused; the hold is unchanged', async () => {
      const customerId = (
        await call('/customers/add', { first_name: 'Min', last_name: 'Imum', email: 'min@example.com' })
      ).body.data.customer_id;
      const link = await call(`/requests/${customerId}`, { amount: '10.00', order_id: nextOrderId() });
      await service.api('POST', '/sandbox/pay', {
        json: { pay_link: link.body.data.pay_link, method: 'card', ...TEST_CARD },
      });
      refused(
        await service.api('POST', `/customers/charge/${customerId}`, {
          json: { merchant_key: merchantKey, amount: 0.3, order_id: nextOrderId() },
        }),
      );
      assert.equal(
        (
          await service.api('POST', `/customers/charge/${customerId}`, {
            json: { merchant_key: merchantKey, amount: 0.5, order_id: nextOrderId() },
          })
        ).status,
        200,
      );

      const hold = await call('/requests', { amount: '20.00', order_id: nextOrderId(), preauth: true });
      const id = (
        await service.api('POST', '/sandbox/pay', {
          json: { pay_link: hold.body.data.pay_link, method: 'card', ...TEST_CARD },
        })
      ).body.data.transaction_id;
      refused(
        await call('/preauth/update', {
          transaction_id: id,
          last_authorized_amount: '20.00',
          new_authorized_amount: '0.49',
        }),
        'new_authorized_amount must be at least 0.50: the smallest payment this platform takes, so that no sale goes to its fee.',
      );
      const { session_token } = await consoleSession(service, merchantKey, { captures: true });
      const consoleApi = consoleCall(service, session_token);
      refused(await consoleApi('POST', `/${id}/capture`, { amount: '0.25' }));
      refused(
        await consoleApi('POST', `/${id}/adjust`, { amount: '0.25' }),
        'new_authorized_amount must be at least 0.50: the smallest payment this platform takes, so that no sale goes to its fee.',
      );
      const read = await service.api('GET', `/preauth/${id}?merchant_key=${encodeURIComponent(merchantKey)}`);
      assert.deepEqual([read.body.data.status, read.body.data.amount], ['authorized', '20.00']);
    });
  });
}

describe('a platform sets its own minimum', () => {
  let service: TestService;
  before(async () => {
    service = await startService({ minimumPayment: 100 });
  });
  after(() => service.close());

  test('PAYKIT_MINIMUM_PAYMENT is read as decimal text; 0.99 is refused where 1.00 is the minimum', async () => {
    assert.equal(readConfig({ PAYKIT_MINIMUM_PAYMENT: '1.00' }).minimumPayment, 100);
    assert.equal(readConfig({}).minimumPayment, 50);
    assert.throws(
      () => readConfig({ PAYKIT_MINIMUM_PAYMENT: '0' }),
      /PAYKIT_MINIMUM_PAYMENT must be an amount such as "0.50"/,
    );
    assert.throws(() => readConfig({ PAYKIT_MINIMUM_PAYMENT: 'fifty cents' }), /PAYKIT_MINIMUM_PAYMENT/);
    const { merchantKey } = await approvedMerchant(service);
    const small = await service.api('POST', '/requests', {
      json: { merchant_key: merchantKey, amount: '0.99', order_id: nextOrderId() },
    });
    assert.deepEqual(
      [small.status, small.body.message],
      [400, 'amount must be at least 1.00: the smallest payment this platform takes, so that no sale goes to its fee.'],
    );
    assert.equal(
      (
        await service.api('POST', '/requests', {
          json: { merchant_key: merchantKey, amount: '1.00', order_id: nextOrderId() },
        })
      ).status,
      200,
    );
  });
});
