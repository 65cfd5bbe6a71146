import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../../support/databases.ts';
import { startService, type TestService } from '../../support/service.ts';
import { approvedMerchant, nextOrderId } from '../../support/payments.ts';
import { scanJson } from '../../../server/plugins/text-input.ts';

const refused =
  (message: string | RegExp) =>
  (answer: { status: number; body: { result: boolean; code: string; message: string } }) => {
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    assert.deepEqual([answer.body.result, answer.body.code], [false, 'invalid_request']);
    if (typeof message === 'string') assert.equal(answer.body.message, message);
    else assert.match(answer.body.message, message);
  };

const BROKEN_ESCAPE =
  /^The (body|query string) is not valid: a "%" must be followed by two hexadecimal digits of UTF-8\.$/;

for (const database of testDatabases()) {
  describe(`text that would be stored differently is refused, not changed (${database})`, () => {
    let service: TestService;
    let merchantKey: string;
    let merchantId: string;
    before(async () => {
      service = await startService({ database });
      ({ merchantKey, merchantId } = await approvedMerchant(service));
    });
    after(() => service.close());

    const requestJson = (text: string) =>
      service.api('POST', '/requests', { raw: text, headers: { 'content-type': 'application/json' } });

    test('a lone surrogate in a JSON string or key is a 400 (PostgreSQL would store U+FFFD where SQLite keeps it)', async () => {
      for (const [text, where] of [
        [`{"merchant_key":"${'MK'}","amount":"1.00","order_id":"a\\ud800b"}`, 'body.order_id'],
        [`{"merchant_key":"${'MK'}","amount":"1.00","order_id":"\\udc00"}`, 'body.order_id'],
        [`{"merchant_key":"${'MK'}","amount":"1.00","order_id":"x","\\ud83d":"y"}`, 'body.\\ud83d'],
      ]) {
        refused(`Text must be valid Unicode; ${where} holds half of a UTF-16 surrogate pair alone.`)(
          await requestJson(text!.replace('MK', merchantKey)),
        );
      }
      // A whole pair is a character like any other, and is kept as sent.
      const orderId = `${nextOrderId()}-\ud83d\udcb3`;
      const made = await requestJson(JSON.stringify({ merchant_key: merchantKey, amount: '1.00', order_id: orderId }));
      assert.equal(made.status, 200);
      assert.equal(made.body.data.order_id, orderId);
      const stored = await service.store.paymentRequests.findById(merchantId, made.body.data.link_id);
      assert.equal(stored?.order_id, orderId, 'stored as sent');
    });

    test('bytes that are not UTF-8 are a 400, not text with U+FFFD in their place', async () => {
      const bytes = Buffer.concat([
        Buffer.from(`{"merchant_key":"${merchantKey}","amount":"1.00","order_id":"x`),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from('"}'),
      ]);
      refused('The body is not valid UTF-8 text: send it encoded as UTF-8.')(
        await service.api('POST', '/requests', { raw: bytes, headers: { 'content-type': 'application/json' } }),
      );
      const latin1 = Buffer.from(`merchant_key=${merchantKey}&amount=1.00&order_id=caf\xe9`, 'latin1');
      refused('The body is not valid UTF-8 text: send it encoded as UTF-8.')(
        await service.api('POST', '/requests', {
          raw: latin1,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      );
    });

    test('a %-escape that is not UTF-8, in a form body or a query string, is a 400, not kept as sent', async () => {
      for (const escape of ['%ED%A0%80', '%C3', '%zz', '%']) {
        const form = `merchant_key=${merchantKey}&amount=1.00&order_id=q${escape}`;
        refused(BROKEN_ESCAPE)(
          await service.api('POST', '/requests', {
            raw: form,
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          }),
        );
        refused(BROKEN_ESCAPE)(await service.api('GET', `/customers?merchant_key=${merchantKey}&search=${escape}`));
      }
      const fine = await service.api('POST', '/requests', {
        form: { merchant_key: merchantKey, amount: '1.00', order_id: `${nextOrderId()}-%é` },
      });
      assert.equal(fine.status, 200, 'an escaped "%" and a character outside ASCII are text like any other');
    });

    test('a name given twice is a 400, in JSON (however it is spelled) and in a form', async () => {
      const twice = (key: string) => `The body names "${key}" twice in one object: send each field once.`;
      refused(twice('amount'))(
        await requestJson(
          `{"merchant_key":"${merchantKey}","amount":"1.00","amount":"900.00","order_id":"${nextOrderId()}"}`,
        ),
      );
      refused(twice('amount'))(
        await requestJson(
          `{"merchant_key":"${merchantKey}","amount":"1.00","\\u0061mount":"900.00","order_id":"${nextOrderId()}"}`,
        ),
      );
      const form = `merchant_key=${merchantKey}&amount=1.00&order_id=${nextOrderId()}&amount=900.00`;
      refused('The body names "amount" twice: send each field once.')(
        await service.api('POST', '/requests', {
          raw: form,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      );
    });
  });
}

test('the JSON scan finds a key named twice in one object only, and stops at the depth limit', () => {
  assert.deepEqual(scanJson('{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}', 32), { depth: 3 });
  assert.deepEqual(scanJson('{"a":{"x":1,"y":[1,"x"],"x":2}}', 32), { depth: 3, duplicateKey: 'x' });
  assert.deepEqual(scanJson('{"a\\"b":1,"a\\u0022b":2}', 32), { depth: 1, duplicateKey: 'a"b' });
  assert.deepEqual(scanJson('{"k":"{\\"k\\":1}","v":"k"}', 32), { depth: 1 }, 'keys inside strings are text');
  assert.deepEqual(scanJson('['.repeat(5000), 32), { depth: 33 });
});
