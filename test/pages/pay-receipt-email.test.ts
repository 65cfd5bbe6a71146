import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../support/service.ts';
import { testDatabases } from '../support/databases.ts';
import { approvedMerchant, nextOrderId } from '../support/payments.ts';
import { waitUntil } from '../support/wait.ts';
import { APPROVE, CHALLENGE, cardForm } from './pay-helpers.ts';

type Message = { channel: string; recipient: string; text: string; pay_link: string };

/** Issue 44: the hosted pay page asks for an optional e-mail for a receipt, remembers it and sends the receipt there. */
for (const database of testDatabases()) {
  describe(`the pay page's e-mail for a receipt (${database})`, () => {
    let service: TestService;
    let merchantKey: string;
    let merchantId: string;
    before(async () => {
      service = await startService({ database });
      ({ merchantKey, merchantId } = await approvedMerchant(service));
    });
    after(() => service.close());

    /** A pay link made without a phone or an address: only the page can ask where a receipt goes. */
    async function linkPath(amount: string) {
      const made = await service.api('POST', '/requests', {
        json: { merchant_key: merchantKey, amount, order_id: nextOrderId() },
      });
      assert.equal(made.status, 200, made.text);
      return new URL(made.body.data.pay_link).pathname;
    }
    const outbox = async (): Promise<Message[]> => (await service.api('GET', '/sandbox/messages')).body.data;

    test('both forms ask for it, optional, as an e-mail field', async () => {
      const page = await service.request('GET', await linkPath('12.00'));
      assert.equal(page.status, 200);
      for (const id of ['card-receipt-email', 'ach-receipt-email']) {
        const tag = new RegExp(`<input[^>]*id="${id}"[^>]*>`).exec(page.text)?.[0];
        assert.ok(tag, `${id} is on the page`);
        assert.match(tag, /type="email"/);
        assert.match(tag, /name="receipt_email"/);
        assert.match(tag, /autocomplete="email"/);
        assert.doesNotMatch(tag, /required/, 'never required');
      }
      assert.match(page.text, /E-mail for a receipt/);
    });

    test('a card paid with an address: remembered on the transaction, the receipt sent to it, and a refund’s too', async () => {
      const paid = await service.request('POST', await linkPath('21.00'), {
        form: cardForm(APPROVE, { receipt_email: '  Jo.Shopper@Example.com ' }),
      });
      assert.equal(paid.status, 200, paid.text);
      const id = /<dt>Transaction<\/dt><dd><code>([^<]+)<\/code>/.exec(paid.text)![1]!;
      const stored = await service.store.transactions.find(merchantId, id);
      assert.equal(stored!.receipt_email, 'Jo.Shopper@Example.com');
      const sent = (await outbox()).filter((m) => m.recipient === 'Jo.Shopper@Example.com');
      assert.equal(sent.length, 1, 'the receipt of the payment');
      assert.equal(sent[0]!.channel, 'email');
      assert.match(sent[0]!.pay_link, /\/receipts\//);

      const refund = await service.api('POST', '/order/sales-return', {
        json: { merchant_key: merchantKey, transaction_id: id, amount: '1.00' },
      });
      assert.equal(refund.status, 200, refund.text);
      await waitUntil(
        async () => (await outbox()).filter((m) => m.recipient === 'Jo.Shopper@Example.com').length === 2,
        { what: "the refund's receipt to the typed address", timeoutMs: 5000 },
      );
    });

    test('through a 3-D Secure step the address goes along, and the receipt to it', async () => {
      const challenged = await service.request('POST', await linkPath('16.00'), {
        form: cardForm(CHALLENGE, { receipt_email: 'three@example.com' }),
      });
      assert.equal(challenged.status, 200, challenged.text);
      const attempt = /name="attempt" value="([^"]+)"/.exec(challenged.text)![1]!;
      assert.match(challenged.text, /<input type="hidden" name="receipt_email" value="three@example.com">/);
      const action = /<form method="post" action="([^"]+\/3ds)"/.exec(challenged.text)![1]!;
      const paid = await service.request('POST', action, {
        form: { attempt, result: 'pass', receipt_email: 'three@example.com' },
      });
      assert.equal(paid.status, 200, paid.text);
      const id = /<dt>Transaction<\/dt><dd><code>([^<]+)<\/code>/.exec(paid.text)![1]!;
      assert.equal((await service.store.transactions.find(merchantId, id))!.receipt_email, 'three@example.com');
      assert.equal((await outbox()).filter((m) => m.recipient === 'three@example.com').length, 1);
    });

    test('left empty, nothing is required and no receipt has anywhere to go', async () => {
      const before = (await outbox()).length;
      const paid = await service.request('POST', await linkPath('13.00'), {
        form: cardForm(APPROVE, { receipt_email: '' }),
      });
      assert.equal(paid.status, 200, paid.text);
      const id = /<dt>Transaction<\/dt><dd><code>([^<]+)<\/code>/.exec(paid.text)![1]!;
      assert.equal((await service.store.transactions.find(merchantId, id))!.receipt_email, null);
      assert.equal((await outbox()).length, before);
    });

    test('an address that is none: the form again, 400, in the page language, what was typed kept, nothing charged', async () => {
      const path = await linkPath('14.00');
      const refused = await service.request('POST', path, { form: cardForm(APPROVE, { receipt_email: 'jo@' }) });
      assert.equal(refused.status, 400, refused.text);
      assert.match(refused.text, /Enter an e-mail address such as name@example.com, or leave it empty\./);
      assert.match(refused.text, /<input[^>]*id="card-receipt-email"[^>]*value="jo@"/);
      assert.match(refused.text, /href="#card-receipt-email"/, 'the summary links to the field');
      const german = await service.request('POST', `${path}?locale=de`, {
        form: { ...cardForm(APPROVE, { receipt_email: 'jo@' }), locale: 'de' },
      });
      assert.equal(german.status, 400);
      assert.match(german.text, /Geben Sie eine E-Mail-Adresse wie name@example.com ein/);
      const open = await service.request('GET', path);
      assert.equal(open.status, 200, 'the link is still open: nothing was paid');
    });
  });
}
