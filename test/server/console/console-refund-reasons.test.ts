import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { approvedMerchant } from '../../support/payments.ts';
import { testDatabases } from '../../support/databases.ts';
import { consoleCall, consoleSession, payment } from '../../support/console.ts';

type Refund = { transaction_id: string; amount: string; reason: string | null; reason_note: string | null };

/** Issue 44: a refund's reason, sent by the console, comes back in the sale's details beside its refund. */
for (const database of testDatabases()) {
  describe(`a console refund's reason (${database})`, () => {
    let service: TestService;
    let merchantKey: string;
    let call: ReturnType<typeof consoleCall>;
    before(async () => {
      service = await startService({ database });
      ({ merchantKey } = await approvedMerchant(service));
      call = consoleCall(service, (await consoleSession(service, merchantKey, { refunds: true })).session_token);
    });
    after(() => service.close());

    test('each refund lists its reason and note, null when none was given; a bad reason changes nothing', async () => {
      const id = await payment(service, merchantKey, '20.00');
      for (const body of [
        { amount: '1.00' },
        { amount: '2.00', reason: 'duplicate' },
        { amount: '3.00', reason: 'other', reason_note: ' Wrong size sent ' },
      ]) {
        const refunded = await call('POST', `/${id}/refund`, body);
        assert.equal(refunded.status, 200, refunded.text);
      }
      for (const [body, words] of [
        [{ amount: '1.00', reason: 'other' }, /reason "other" needs a reason_note/],
        [{ amount: '1.00', reason: 'changed_mind' }, /reason must be one of requested_by_customer, duplicate/],
      ] as const) {
        const refused = await call('POST', `/${id}/refund`, body);
        assert.equal(refused.status, 400, refused.text);
        assert.equal(refused.body.code, 'invalid_request');
        assert.match(refused.body.message, words);
      }
      const details = await call('GET', `/${id}`);
      assert.equal(details.status, 200, details.text);
      assert.equal(details.body.data.refunded_amount, '6.00', 'the refused ones refunded nothing');
      const refunds = (details.body.data.refunds as Refund[])
        .map(({ amount, reason, reason_note }) => ({ amount, reason, reason_note }))
        .sort((a, b) => a.amount.localeCompare(b.amount));
      assert.deepEqual(refunds, [
        { amount: '1.00', reason: null, reason_note: null },
        { amount: '2.00', reason: 'duplicate', reason_note: null },
        { amount: '3.00', reason: 'other', reason_note: 'Wrong size sent' },
      ]);
    });
  });
}
