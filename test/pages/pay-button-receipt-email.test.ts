import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../support/service.ts';
import { testDatabases } from '../support/databases.ts';
import { approvedMerchant } from '../support/payments.ts';
import { APPROVE, cardForm } from './pay-helpers.ts';

type Message = { channel: string; recipient: string };

/** Issue 44: a pay button passes the shopper's e-mail; the pay page starts its receipt field with it, and no more. */
for (const database of testDatabases()) {
  describe(`a pay button's e-mail for the receipt (${database})`, () => {
    let service: TestService;
    let merchantId: string;
    let publicKey: string;
    before(async () => {
      service = await startService({ database });
      ({ merchantId } = await approvedMerchant(service));
      publicKey = (await service.api('GET', '/merchant')).body.data[0].public_data.public_key;
    });
    after(() => service.close());

    const outbox = async (): Promise<Message[]> => (await service.api('GET', '/sandbox/messages')).body.data;
    /** A pay link as the pay button makes it, and its page's path. */
    async function payButtonLink(json: object) {
      const made = await service.request('POST', `/api/v1/widgets/${publicKey}/pay-links`, { json });
      return { made, path: made.status === 200 ? new URL(made.body.data.pay_link).pathname : '' };
    }
    const receiptField = (html: string) => /<input[^>]*id="card-receipt-email"[^>]*>/.exec(html)?.[0] ?? '';
    const paidId = (html: string) => /<dt>Transaction<\/dt><dd><code>([^<]+)<\/code>/.exec(html)![1]!;

    test('the page starts with it; kept, the receipt goes there; changed or cleared, the shopper’s choice wins', async () => {
      const { made, path } = await payButtonLink({ amount: '15.00', receipt_email: ' kim@example.com ' });
      assert.equal(made.status, 200, made.text);
      const page = await service.request('GET', path);
      assert.equal(page.status, 200);
      assert.match(receiptField(page.text), /value="kim@example.com"/);
      assert.doesNotMatch(receiptField(page.text), /required/, 'still optional');
      assert.equal((await outbox()).filter((m) => m.recipient === 'kim@example.com').length, 0, 'nothing sent yet');
      const paid = await service.request('POST', path, {
        form: cardForm(APPROVE, { receipt_email: 'kim@example.com' }),
      });
      assert.equal(paid.status, 200, paid.text);
      assert.equal(
        (await service.store.transactions.find(merchantId, paidId(paid.text)))!.receipt_email,
        'kim@example.com',
      );
      assert.equal((await outbox()).filter((m) => m.recipient === 'kim@example.com').length, 1, 'the receipt');

      const changed = await payButtonLink({ amount: '16.00', receipt_email: 'lee@example.com' });
      const other = await service.request('POST', changed.path, {
        form: cardForm(APPROVE, { receipt_email: 'lee.own@example.com' }),
      });
      assert.equal(other.status, 200, other.text);
      assert.equal((await outbox()).filter((m) => m.recipient === 'lee.own@example.com').length, 1);
      assert.equal((await outbox()).filter((m) => m.recipient === 'lee@example.com').length, 0);

      const cleared = await payButtonLink({ amount: '17.00', receipt_email: 'max@example.com' });
      const before = (await outbox()).length;
      const none = await service.request('POST', cleared.path, { form: cardForm(APPROVE, { receipt_email: '' }) });
      assert.equal(none.status, 200, none.text);
      assert.equal((await service.store.transactions.find(merchantId, paidId(none.text)))!.receipt_email, null);
      assert.equal((await outbox()).length, before, 'cleared: no receipt to the address passed');
    });

    test('without one the field starts empty; one that is no address is a 400 and makes no link', async () => {
      const { path } = await payButtonLink({ amount: '18.00' });
      assert.match(receiptField((await service.request('GET', path)).text), /value=""/);
      for (const receipt_email of ['kim@', 'not an address']) {
        const { made } = await payButtonLink({ amount: '19.00', order_id: 'bad-email-order', receipt_email });
        assert.equal(made.status, 400, made.text);
        assert.equal(made.body.code, 'invalid_request');
        assert.match(
          made.body.message,
          /^receipt_email ".+" is not an e-mail address: send one such as name@example\.com/,
        );
      }
      const { made } = await payButtonLink({ amount: '19.00', order_id: 'bad-email-order' });
      assert.equal(made.status, 200, `the refused ones took no order id: ${made.text}`);
      const long = await payButtonLink({ amount: '19.00', receipt_email: `${'a'.repeat(250)}@example.com` });
      assert.equal(long.made.status, 400, long.made.text);
    });
  });
}
