import type { ListedTransaction } from '../store/transactions.ts';
import { formatAmount, toMajorNumber } from '../domain/money.ts';
import { feePercentage } from '../domain/pricing.ts';
import { isSettled } from '../domain/refunds.ts';

type TransactionState = 'pending' | 'completed' | 'partly_refunded' | 'refunded' | 'declined' | 'voided';

/** Fee percentage of a record: the price of a sale, zero for refunds, voids and returns. */
const percentageOf = (t: ListedTransaction) => (t.kind === 'sale' ? feePercentage(t.method) : (0).toFixed(7));

/**
 * The status as a merchant reads it: a completed sale with refunds is `partly_refunded`, or `refunded` once all of
 * it was; the stored status stays `completed` (a refund is a record of its own).
 */
function stateOf(t: ListedTransaction): TransactionState {
  if (t.kind !== 'sale' || t.status !== 'completed' || t.refunded_amount === 0) return t.status as TransactionState;
  return t.refunded_amount >= t.amount ? 'refunded' : 'partly_refunded';
}

/** What every view adds beyond the interface's fields: enough for a table to show a status. */
function extras(t: ListedTransaction, now: Date) {
  return {
    type: t.kind,
    status: t.status,
    state: stateOf(t),
    method: t.method,
    order_id: t.order_id,
    refunded_amount: formatAmount(t.refunded_amount),
    settled:
      t.kind === 'sale' &&
      t.status === 'completed' &&
      isSettled({ completedAt: t.completed_at, settledAt: t.settled_at }, now),
    parent_transaction_id: t.parent_id,
    // Issue 44: why a refund (or a void asked for as one) was made; null for every other record and when none was given.
    refund_reason: t.refund_reason ?? null,
    refund_note: t.refund_note ?? null,
    dispute_id: t.dispute_id ?? null,
  };
}

/** An item of GET /merchant/transactions. */
export function listItem(t: ListedTransaction, now: Date) {
  return {
    transaction_id: t.id,
    amount: formatAmount(t.amount),
    created_date: t.created_at,
    fee_percentage: percentageOf(t),
    net_amount: toMajorNumber(t.net_amount),
    other_details: { auth_code: t.auth_code, card_brand: t.card_brand, last_four: t.last_four },
    ...extras(t, now),
  };
}

/** The one item of GET /merchant/transactions/{transaction_id}. */
export function singleItem(t: ListedTransaction, now: Date) {
  return {
    transaction_id: t.id,
    amount: formatAmount(t.amount),
    transaction_date: t.created_at,
    fee_percentage: percentageOf(t),
    net_amount: toMajorNumber(t.net_amount),
    other_details: { authcode: t.auth_code, cardType: t.card_brand, lastFourDigits: t.last_four },
    ...extras(t, now),
  };
}
