import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { testDatabases } from '../../support/databases.ts';
import { approvedMerchant, eventsAbout, paidSale, partnerClient } from '../../support/payments.ts';
import { consoleCall, consoleSession } from '../../support/console.ts';
import { checkLedger } from '../../support/ledger.ts';

/** Issue 44: a refund's optional reason, kept on its record, listed, exported, and sent with `payment.refund`. */
for (const database of testDatabases()) {
  describe(`refund reasons (${database})`, () => {
    let service: TestService;
    let merchantKey: string;
    let merchantId: string;
    before(async () => {
      service = await startService({ database });
      ({ merchantKey, merchantId } = await approvedMerchant(service));
    });
    after(() => service.close());

    const refund = (transaction_id: string, amount: string, extra: Record<string, unknown> = {}) =>
      service.api('POST', '/order/sales-return', {
        json: { merchant_key: merchantKey, transaction_id, amount, ...extra },
      });

    test('a reason (and a note) is answered, listed, read back and sent in payment.refund', async () => {
      const sale = await paidSale(service, merchantKey, '40.00');
      const first = await refund(sale, '10.00', { reason: 'duplicate' });
      assert.equal(first.status, 200, first.text);
      assert.equal(first.body.data.reason, 'duplicate');
      assert.equal(first.body.data.reason_note, undefined, 'no note given, none answered');
      const second = await refund(sale, '5.00', { reason: 'other', reason_note: '  Box arrived crushed  ' });
      assert.equal(second.status, 200, second.text);
      assert.equal(second.body.data.reason_note, 'Box arrived crushed', 'the note as one trimmed line');
      const plain = await refund(sale, '1.00');
      assert.equal(plain.status, 200, plain.text);
      assert.equal('reason' in plain.body.data, false, 'without a reason, the record reads as before');

      const one = await service.api('GET', `/merchant/transactions/${second.body.data.transaction_id}`, {
        json: { merchant_key: merchantKey },
      });
      assert.equal(one.status, 200, one.text);
      assert.equal(one.body.data[0].refund_reason, 'other');
      assert.equal(one.body.data[0].refund_note, 'Box arrived crushed');
      const listed = await service.api('GET', '/merchant/transactions', {
        json: { merchant_key: merchantKey, pageNumber: 1, limit: '50' },
      });
      const byId = new Map(listed.body.data.map((t: { transaction_id: string }) => [t.transaction_id, t]));
      assert.equal((byId.get(first.body.data.transaction_id) as any).refund_reason, 'duplicate');
      assert.equal((byId.get(plain.body.data.transaction_id) as any).refund_reason, null);
      assert.equal((byId.get(sale) as any).refund_reason, null, 'a sale has none');

      const [sent] = await eventsAbout(service, 'payment.refund', second.body.data.transaction_id);
      assert.equal(sent!.data.reason, 'other');
      assert.equal(sent!.data.reason_note, 'Box arrived crushed');
      const [bare] = await eventsAbout(service, 'payment.refund', plain.body.data.transaction_id);
      assert.equal('reason' in bare!.data, false, 'added only when given');
      await checkLedger(service.store, partnerClient(service), merchantKey, merchantId);
    });

    test('a reason out of the list, other without a note, a note without a reason: 400s that say what to send', async () => {
      const sale = await paidSale(service, merchantKey, '20.00');
      for (const [extra, words] of [
        [{ reason: 'changed_mind' }, /reason must be one of requested_by_customer, duplicate, fraudulent, other/],
        [{ reason: 'other' }, /needs a reason_note/],
        [{ reason: 'other', reason_note: '   ' }, /needs a reason_note/],
        [{ reason_note: 'why not' }, /send reason "other" too/],
        [{ reason: 'other', reason_note: 'x'.repeat(201) }, /at most 200 characters/],
        [{ reason: 'other', reason_note: 'two\nlines' }, /one line/],
      ] as const) {
        const answer = await refund(sale, '5.00', extra);
        assert.equal(answer.status, 400, `${JSON.stringify(extra)}: ${answer.text}`);
        assert.equal(answer.body.result, false);
        assert.equal(answer.body.code, 'invalid_request');
        assert.match(answer.body.message, words);
      }
      const read = await service.store.transactions.find(merchantId, sale);
      assert.equal(read!.refunded_amount, 0, 'nothing refunded by a refused reason');
    });

    test('the console refunds with a reason, and its CSV export names it in the language asked', async () => {
      const sale = await paidSale(service, merchantKey, '30.00');
      const { session_token } = await consoleSession(service, merchantKey, { refunds: true, export: true });
      const call = consoleCall(service, session_token);
      const done = await call('POST', `/${sale}/refund`, { amount: '3.00', reason: 'fraudulent' });
      assert.equal(done.status, 200, done.text);
      const refused = await call('POST', `/${sale}/refund`, { amount: '3.00', reason: 'other' });
      assert.equal(refused.status, 400, refused.text);
      await call('POST', `/${sale}/refund`, { amount: '2.00', reason: 'other', reason_note: 'Kunde, "zweimal"' });
      for (const [lang, header, fraud, other] of [
        ['en', 'Refund reason', 'Fraudulent', 'Other: Kunde, "zweimal"'],
        ['de', 'Erstattungsgrund', 'Betrügerisch', 'Sonstiges: Kunde, "zweimal"'],
      ]) {
        const answer = await service.request('GET', `/api/v1/widgets/transactions/export.csv?lang=${lang}`, {
          headers: { authorization: `Bearer ${session_token}` },
        });
        assert.equal(answer.status, 200, answer.text);
        const lines = answer.text.split('\r\n');
        assert.ok(lines[0]!.endsWith(header!), lines[0]);
        assert.ok(
          lines.some((line) => line.endsWith(fraud!)),
          `${lang}: a row ends with ${fraud}`,
        );
        assert.ok(
          lines.some((line) => line.endsWith(`"${other!.replaceAll('"', '""')}"`)),
          `${lang}: the note quoted as CSV`,
        );
      }
      await checkLedger(service.store, partnerClient(service), merchantKey, merchantId);
    });
  });
}
