import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { approvedMerchant } from '../../support/payments.ts';
import { testDatabases } from '../../support/databases.ts';
import { consoleCall, consoleSession, payment } from '../../support/console.ts';

type Message = { channel: string; recipient: string; text: string; pay_link: string };

/** Issue 44: the console sends a receipt to an address or phone the merchant types, checked and bounded like a resend. */
for (const database of testDatabases()) {
  describe(`a receipt to where the merchant types (${database})`, () => {
    let service: TestService;
    let merchantKey: string;
    let call: ReturnType<typeof consoleCall>;
    before(async () => {
      service = await startService({ database });
      ({ merchantKey } = await approvedMerchant(service));
      call = consoleCall(service, (await consoleSession(service, merchantKey, { receipts: true })).session_token);
    });
    after(() => service.close());

    const outbox = async (): Promise<Message[]> => (await service.api('GET', '/sandbox/messages')).body.data;

    test('a payment nobody can be reached for: sent to the address or phone typed, in the timeline, bounded per transaction', async () => {
      const id = await payment(service, merchantKey, '17.00');
      const nobody = await call('POST', `/${id}/receipt`);
      assert.equal(nobody.status, 409, 'without a recipient typed, as before: nobody to send it to');

      const mailed = await call('POST', `/${id}/receipt`, { email: ' front.desk@example.com ' });
      assert.equal(mailed.status, 200, mailed.text);
      const [mail] = (await outbox()).filter((m) => m.recipient === 'front.desk@example.com');
      assert.equal(mail!.channel, 'email');
      assert.match(mail!.pay_link, /\/receipts\/rct_/);
      assert.equal(
        mailed.body.data.timeline.filter((s: { what: string }) => s.what === 'receipt_sent').length,
        1,
        'recorded in the timeline',
      );

      const texted = await call('POST', `/${id}/receipt`, { phone: '(415) 555-0134' });
      assert.equal(texted.status, 200, texted.text);
      assert.equal((await outbox()).filter((m) => m.channel === 'sms' && m.recipient.endsWith('4155550134')).length, 1);

      for (const [body, words] of [
        [{ email: 'front.desk@' }, /is not an e-mail address: send one such as name@example.com/],
        [{ phone: 'call me' }, /is not a phone number: send "\+" and the country code, or ten digits/],
      ] as const) {
        const refused = await call('POST', `/${id}/receipt`, body);
        assert.equal(refused.status, 400, refused.text);
        assert.equal(refused.body.code, 'invalid_request');
        assert.match(refused.body.message, words);
      }

      await call('POST', `/${id}/receipt`, { email: 'third@example.com' });
      const capped = await call('POST', `/${id}/receipt`, { email: 'fourth@example.com' });
      assert.equal(capped.status, 429, `the resend cap holds for typed recipients too: ${capped.text}`);
      assert.equal((await outbox()).filter((m) => m.recipient === 'fourth@example.com').length, 0);
    });
  });
}
