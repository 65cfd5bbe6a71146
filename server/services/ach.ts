import type { Store } from '../store/store.ts';
import type { MerchantAccount } from '../store/merchants.ts';
import type { Transaction } from '../store/transactions.ts';
import { conflict, notFound } from '../domain/refusals.ts';
import { newId } from '../platform/secrets.ts';
import { paymentSuccessEvent } from './events.ts';
import { isoInstant } from '../domain/instants.ts';
import { isoDateOf } from '../domain/calendar.ts';
import { reversalEntries } from '../domain/ledger.ts';

/**
 * Sandbox POST /update-ach: the bank's answer to a waiting ACH payment. Approved completes it (and the
 * partner hears `payment.success` then, when money moved); declined leaves a reversal record.
 */
export async function decideAch(store: Store, merchant: MerchantAccount, transactionId: string, decision: 'approved' | 'declined', now: Date) {
  return store.transaction(async (tx) => {
    const sale = await tx.transactions.findForUpdate(merchant.id, transactionId);
    if (!sale || sale.method !== 'ach' || sale.kind !== 'sale') throw notFound(`No ACH transaction ${transactionId} for this merchant.`);
    if (sale.status !== 'pending') throw conflict(`ACH transaction ${transactionId} was already ${sale.status === 'completed' ? 'approved' : 'declined'}.`);
    if (decision === 'approved') {
      await tx.transactions.update(sale.id, { status: 'completed', completed_at: isoInstant(now) });
      // Its money, pending since it was paid, is available from the day its bank approved it.
      await tx.ledger.makeAvailable(sale.id, isoDateOf(now));
      await tx.events.add(merchant.client_id, 'ach.update', { merchant_id: merchant.id, status: 'Approved', tran_id: sale.id, message: 'Approved' }, now);
      await tx.events.add(merchant.client_id, 'payment.success', paymentSuccessEvent({ ...sale, status: 'completed' }, sale.request_id), now);
      return;
    }
    const reversal: Transaction = {
      ...sale, id: newId('txn_'), parent_id: sale.id, kind: 'ach_return', status: 'completed', fee_amount: 0,
      net_amount: -sale.net_amount, refunded_amount: 0, gateway_ref: newId('gw_'), created_at: isoInstant(now),
      completed_at: isoInstant(now), settled_at: null,
    };
    await tx.transactions.update(sale.id, { status: 'declined' });
    await tx.transactions.insert(reversal);
    // The payment's money and its return both count today, and cancel out: the next payout shows both.
    await tx.ledger.makeAvailable(sale.id, isoDateOf(now));
    await tx.ledger.add(reversalEntries(reversal, sale, now));
    await tx.events.add(merchant.client_id, 'ach.update', {
      merchant_id: merchant.id, status: 'Declined', tran_id: sale.id, message: 'Insufficient Funds', return_transaction_id: reversal.id,
    }, now);
  });
}
