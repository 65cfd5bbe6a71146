import type { Store } from '../store/store.ts';
import type { MerchantAccount } from '../store/merchants.ts';
import { ownColumns, type Transaction } from '../store/transactions.ts';
import { eventRow } from '../store/events.ts';
import { conflict, notFound } from '../domain/refusals.ts';
import { newId } from '../platform/secrets.ts';
import { achApprovedEvent, achDeclinedEvent, paymentSuccessEvent } from './events.ts';
import { isoInstant } from '../domain/instants.ts';
import { canReachShopper } from './receipts.ts';
import { isoDateOf } from '../domain/calendar.ts';
import { reversalEntries } from '../domain/ledger.ts';
import { entryRows, madeAvailable } from '../store/ledger.ts';
import type { Change } from '../store/changes.ts';

/**
 * Sandbox POST /update-ach: the bank's answer to a waiting ACH payment, as a change. Approved completes it (and the
 * partner hears `payment.success` then, when money moved); declined leaves a reversal record. Decided on the
 * payment as read, written only while it is still waiting.
 */
export async function decideAch(
  store: Store,
  merchant: MerchantAccount,
  transactionId: string,
  decision: 'approved' | 'declined',
  now: Date,
): Promise<{ change: Change; returnedId?: string; shopperReachable: boolean }> {
  const sale = await store.transactions.findForChange(merchant.id, transactionId);
  if (!sale || sale.method !== 'ach' || sale.kind !== 'sale')
    throw notFound(`No ACH transaction ${transactionId} for this merchant.`);
  if (sale.status !== 'pending')
    throw conflict(
      `ACH transaction ${transactionId} was already ${sale.status === 'completed' ? 'approved' : 'declined'}.`,
    );
  const at = isoInstant(now);
  const event = (type: string, data: Record<string, unknown>) => eventRow(merchant.client_id, type, data, now);
  const where = { id: sale.id, merchant_id: merchant.id, status: 'pending' };
  const shopperReachable = canReachShopper(sale);
  if (decision === 'approved') {
    const change: Change = {
      // Its money, pending since it was paid, is available from the day its bank approved it.
      guards: [
        { table: 'transactions', where, set: { status: 'completed', completed_at: at } },
        madeAvailable(sale.id, isoDateOf(now)),
      ],
      rows: [],
      events: [
        event('ach.update', achApprovedEvent(sale)),
        event(
          'payment.success',
          paymentSuccessEvent({ ...sale, status: 'completed', completed_at: at }, sale.request_id),
        ),
      ],
    };
    return { change, shopperReachable };
  }
  const reversal: Transaction = {
    ...ownColumns(sale),
    id: newId('txn_'),
    parent_id: sale.id,
    kind: 'ach_return',
    status: 'completed',
    fee_amount: 0,
    net_amount: -sale.net_amount,
    refunded_amount: 0,
    gateway_ref: newId('gw_'),
    created_at: at,
    completed_at: at,
    settled_at: null,
  };
  const change: Change = {
    // The payment's money and its return both count today, and cancel out: the next payout shows both.
    guards: [{ table: 'transactions', where, set: { status: 'declined' } }, madeAvailable(sale.id, isoDateOf(now))],
    rows: [{ table: 'transactions', row: reversal }, ...entryRows(reversalEntries(reversal, sale, now))],
    events: [event('ach.update', achDeclinedEvent(sale, reversal))],
  };
  return { change, returnedId: reversal.id, shopperReachable };
}
