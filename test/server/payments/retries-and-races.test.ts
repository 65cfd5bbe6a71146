import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { testDatabases } from '../../support/databases.ts';
import { approvedMerchant, nextOrderId, TEST_CARD } from '../../support/payments.ts';

const taken = (orderId: string) => `order_id "${orderId}" was already used for this merchant: order ids are unique.`;

for (const database of testDatabases()) {
  describe(`a retry never charges twice, and racing writes are 409s, not 500s (${database})`, () => {
    let service: TestService;
    let merchantKey: string;
    let customerId: string;
    before(async () => {
      service = await startService({ database });
      ({ merchantKey } = await approvedMerchant(service));
      const customer = await service.api('POST', '/customers/add', {
        json: { merchant_key: merchantKey, first_name: 'Rae', last_name: 'Retry', email: 'rae@example.com' },
      });
      customerId = customer.body.data.customer_id;
      const request = await service.api('POST', `/requests/${customerId}`, {
        json: { merchant_key: merchantKey, amount: '5.00', order_id: nextOrderId() },
      });
      await service.api('POST', '/sandbox/pay', {
        json: { pay_link: request.body.data.pay_link, method: 'card', ...TEST_CARD },
      });
    });
    after(() => service.close());

    const charge = (orderId: string, amount: number | string = 12.5) =>
      service.api('POST', `/customers/charge/${customerId}`, {
        json: { merchant_key: merchantKey, amount, order_id: orderId },
      });
    const salesOf = async (orderId: string) => {
      const list = await service.api('GET', '/merchant/transactions', {
        json: { merchant_key: merchantKey, limit: '100' },
      });
      return (list.body.data as { order_id: string; type: string }[]).filter(
        (t) => t.order_id === orderId && t.type === 'sale',
      );
    };

    test('charging a stored customer again with the same order_id is a 409, not a second sale', async () => {
      const orderId = nextOrderId();
      const first = await charge(orderId);
      assert.equal(first.status, 200, first.text);
      const again = await charge(orderId);
      assert.deepEqual([again.status, again.body], [409, { result: false, message: taken(orderId), code: 'conflict' }]);
      assert.equal((await salesOf(orderId)).length, 1);
    });

    test('five identical charges at once make one sale', async () => {
      const orderId = nextOrderId();
      const answers = await Promise.all(Array.from({ length: 5 }, () => charge(orderId)));
      assert.deepEqual(
        answers.map((a) => a.status).sort(),
        [200, 409, 409, 409, 409],
        answers.map((a) => a.text).join('\n'),
      );
      assert.equal((await salesOf(orderId)).length, 1);
    });

    test('order ids are unique across pay links and charges, both ways', async () => {
      const charged = nextOrderId();
      assert.equal((await charge(charged)).status, 200);
      const request = await service.api('POST', '/requests', {
        json: { merchant_key: merchantKey, amount: '1.00', order_id: charged },
      });
      assert.deepEqual([request.status, request.body.message], [409, taken(charged)]);
      const qr = await service.api('POST', '/order/api-qr_code_link', {
        json: { merchant_key: merchantKey, amount: '1.00', order_id: charged },
      });
      assert.deepEqual([qr.status, qr.body.message], [409, taken(charged)]);

      const requested = nextOrderId();
      assert.equal(
        (
          await service.api('POST', '/requests', {
            json: { merchant_key: merchantKey, amount: '1.00', order_id: requested },
          })
        ).status,
        200,
      );
      const chargedAfter = await charge(requested);
      assert.deepEqual([chargedAfter.status, chargedAfter.body.message], [409, taken(requested)]);
      assert.equal((await salesOf(requested)).length, 0);
    });

    test('a refused charge leaves its order id free', async () => {
      const orderId = nextOrderId();
      assert.equal((await charge(orderId, '1000000.00')).status, 400);
      assert.equal((await charge(orderId)).status, 200);
    });

    test('twenty POST /requests with one order_id at once: one 200, nineteen 409s', async () => {
      const orderId = nextOrderId();
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          service.api('POST', '/requests', { json: { merchant_key: merchantKey, amount: '2.00', order_id: orderId } }),
        ),
      );
      assert.deepEqual(
        answers.map((a) => a.status).sort(),
        [200, ...Array(19).fill(409)],
        answers
          .filter((a) => a.status >= 500)
          .map((a) => a.text)
          .join('\n'),
      );
      for (const answer of answers.filter((a) => a.status === 409)) assert.equal(answer.body.message, taken(orderId));
    });

    test('fifty first registrations of a webhook URL at once all succeed, with one signing secret', async () => {
      const fresh = await service.newClient('Racing partner');
      const auth = { id: fresh.clientId, secret: fresh.secretKey };
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          service.api('POST', '/client/update-webhooks-url', {
            auth,
            json: { webhook_url: `http://127.0.0.1:9/hooks/${i}` },
          }),
        ),
      );
      assert.deepEqual(
        [...new Set(answers.map((a) => a.status))],
        [200],
        answers
          .filter((a) => a.status !== 200)
          .map((a) => a.text)
          .join('\n'),
      );
      assert.equal(new Set(answers.map((a) => a.body.data.signing_secret)).size, 1);
      const read = await service.api('GET', '/client/webhooks', { auth });
      assert.equal(read.body.data.signing_secret, answers[0]!.body.data.signing_secret);
    });
  });
}
