import type { Store } from '../store/store.ts';
import type { Transaction } from '../store/transactions.ts';
import type { MerchantAccount } from '../store/merchants.ts';
import { Refusal, invalid } from '../domain/refusals.ts';
import { parseAmount, toMajorNumber } from '../domain/money.ts';
import { decideRefund, decideVoid } from '../domain/refunds.ts';
import { newId } from '../secrets.ts';
import { isoInstant } from '../domain/instants.ts';

/** The record the interface answers for a refund or a void (Resources: Refund and void record). */
export function reversalRecord(record: Transaction, original: Transaction) {
  return {
    sales_id: record.id,
    transaction_id: record.id,
    order_createdfrom: original.source,
    amount: toMajorNumber(record.amount),
    txn_id: record.gateway_ref,
    txn_date: record.created_at,
    linked_txn_id: original.id,
    Status: 'Success' as const,
    type: record.kind === 'void' ? ('Void' as const) : ('Refund' as const),
  };
}

/** The `payment.refund` event of a reversal record, with exactly the interface's fields. */
function refundEvent(record: Transaction, sale: Transaction) {
  return {
    merchant_id: sale.merchant_id,
    transaction_id: record.id,
    Status: 'Success',
    linked_txn_id: record.id,
    parent_transaction_id: sale.id,
    sales_id: record.id,
    order_createdfrom: sale.source,
    amount: toMajorNumber(record.amount),
    txn_id: record.gateway_ref,
    txn_date: record.created_at,
    type: 'Refund',
  };
}

const asRefundable = (sale: Transaction | undefined) =>
  sale && { kind: sale.kind, status: sale.status, amount: sale.amount, refunded: sale.refunded_amount, completedAt: sale.completed_at, settledAt: sale.settled_at };

function reversal(sale: Transaction, kind: 'refund' | 'void', amount: number, now: Date): Transaction {
  return {
    id: newId('txn_'), client_id: sale.client_id, merchant_id: sale.merchant_id, customer_id: sale.customer_id,
    request_id: sale.request_id, parent_id: sale.id, kind, method: sale.method, status: 'completed', source: sale.source,
    order_id: sale.order_id, amount, fee_amount: 0,
    // A void returns the processor's fee with the sale; a refund does not.
    net_amount: kind === 'void' ? -sale.net_amount : -amount,
    refunded_amount: 0, card_brand: sale.card_brand, last_four: sale.last_four, auth_code: sale.auth_code,
    gateway_ref: newId('gw_'), created_at: isoInstant(now), completed_at: isoInstant(now), settled_at: null,
  };
}

/** Fields an action's events carry beyond the interface's: `widget_session_id` for one made through a widget session. */
export type EventExtras = Record<string, string>;

async function voidInside(tx: Store, sale: Transaction, now: Date, extras: EventExtras): Promise<Transaction> {
  const record = reversal(sale, 'void', sale.amount, now);
  await tx.transactions.insert(record);
  await tx.transactions.update(sale.id, { status: 'voided' });
  const answer = reversalRecord(record, sale);
  await tx.events.add(sale.client_id, 'payment.void', { merchant_id: sale.merchant_id, ...answer, ...extras }, now);
  return record;
}

/**
 * POST /order/sales-return. The sale is locked for the transaction, so concurrent refunds run one after
 * another and never return more than was charged.
 */
export async function refundSale(store: Store, merchant: MerchantAccount, transactionId: string, amountText: string | number, now: Date, extras: EventExtras = {}) {
  const amount = parseAmount(String(amountText));
  if (amount === null || amount <= 0) throw invalid('amount must be decimal text greater than zero with at most two decimals, e.g. "5.00".');
  return store.transaction(async (tx) => {
    const sale = await tx.transactions.findForUpdate(merchant.id, transactionId);
    const decision = decideRefund(asRefundable(sale), amount, now);
    if (!decision.ok) throw new Refusal(decision.reason, decision.message);
    if (decision.as === 'void') {
      const record = await voidInside(tx, sale!, now, extras);
      // The partner asked for a refund and listens for refunds: it hears one, for the same record as the void.
      await tx.events.add(sale!.client_id, 'payment.refund', { ...refundEvent(record, sale!), performed_as: 'void', ...extras }, now);
      return { record: reversalRecord(record, sale!), performedAsVoid: true };
    }
    const record = reversal(sale!, 'refund', amount, now);
    await tx.transactions.insert(record);
    await tx.transactions.update(sale!.id, { refunded_amount: sale!.refunded_amount + amount });
    await tx.events.add(sale!.client_id, 'payment.refund', { ...refundEvent(record, sale!), ...extras }, now);
    return { record: reversalRecord(record, sale!), performedAsVoid: false };
  });
}

/** POST /order/sales-void: the whole sale, before it settles. */
export async function voidSale(store: Store, merchant: MerchantAccount, transactionId: string, now: Date, extras: EventExtras = {}) {
  return store.transaction(async (tx) => {
    const sale = await tx.transactions.findForUpdate(merchant.id, transactionId);
    const decision = decideVoid(asRefundable(sale), now);
    if (!decision.ok) throw new Refusal(decision.reason, decision.message);
    const record = await voidInside(tx, sale!, now, extras);
    return reversalRecord(record, sale!);
  });
}

