/**
 * A transaction's `state` in GET /merchant/transactions and GET /merchant/transactions/{id}: the status as a merchant
 * reads it. A sale refunded in full reads `refunded`, in part `partly_refunded`; `status` stays the stored one; a
 * refund is a record of its own (`type: "refund"`, the sale as `parent_transaction_id`), on both databases.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { testDatabases } from '../../support/databases.ts';
import { approvedMerchant, paidSale, partnerClient } from '../../support/payments.ts';

for (const database of testDatabases()) {
  describe(`a transaction's state (${database})`, () => {
    let service: TestService;
    before(async () => {
      service = await startService({ database });
    });
    after(() => service.close());

    test('completed, partly_refunded, refunded and voided; a refund row is a refund of its sale', async () => {
      const paykit = partnerClient(service);
      const { merchantKey } = await approvedMerchant(service);
      const [kept, part, whole, voided] = [
        await paidSale(service, merchantKey, '10.00'),
        await paidSale(service, merchantKey, '10.00'),
        await paidSale(service, merchantKey, '10.00'),
        await paidSale(service, merchantKey, '10.00'),
      ];
      const partRefund = await paykit.transactions.refund({
        merchant_key: merchantKey,
        transaction_id: part,
        amount: '4.00',
      });
      await paykit.transactions.refund({ merchant_key: merchantKey, transaction_id: whole, amount: '6.00' });
      await paykit.transactions.refund({ merchant_key: merchantKey, transaction_id: whole, amount: '4.00' });
      await paykit.transactions.void({ merchant_key: merchantKey, transaction_id: voided });

      const listed = new Map((await paykit.transactions.list(merchantKey).toArray()).map((t) => [t.transaction_id, t]));
      const states = (id: string) => [
        listed.get(id)!.type,
        listed.get(id)!.status,
        listed.get(id)!.state,
        listed.get(id)!.refunded_amount,
      ];
      assert.deepEqual(states(kept), ['sale', 'completed', 'completed', '0.00']);
      assert.deepEqual(states(part), ['sale', 'completed', 'partly_refunded', '4.00']);
      assert.deepEqual(states(whole), ['sale', 'completed', 'refunded', '10.00']);
      assert.deepEqual(states(voided), ['sale', 'voided', 'voided', '0.00']);
      const refundRow = listed.get(partRefund.transaction_id)!;
      assert.deepEqual(
        [refundRow.type, refundRow.state, refundRow.parent_transaction_id, refundRow.order_id],
        ['refund', 'completed', part, listed.get(part)!.order_id],
      );
      // The one transaction reads the same.
      assert.equal((await paykit.transactions.get(merchantKey, whole)).state, 'refunded');
      assert.equal((await paykit.transactions.get(merchantKey, part)).state, 'partly_refunded');
    });
  });
}
