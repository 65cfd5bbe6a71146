import type { Store } from '../store/store.ts';
import type { Transaction } from '../store/transactions.ts';
import type { MerchantAccount } from '../store/merchants.ts';
import { Refusal, invalid } from '../domain/refusals.ts';
import { parseAmount, toMajorNumber } from '../domain/money.ts';
import { decideRefund, decideVoid } from '../domain/refunds.ts';
import { newId } from '../platform/secrets.ts';
import { isoInstant } from '../domain/instants.ts';
import { eventRow } from '../store/events.ts';
import type { GuardedChange } from '../store/guarded-changes.ts';
import type { AnswerSeal } from '../store/idempotency-keys.ts';
import { readDecideWrite } from './guarded.ts';
import { canReachShopper } from './receipts.ts';
import { reversalEntries } from '../domain/ledger.ts';

/** The record the interface answers for a refund or a void (Resources: Refund and void record). */
function reversalRecord(record: Transaction, original: Transaction) {
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

/** A void as the interface answers it, and whether its receipt has a shopper to go to (`canReachShopper`). */
export interface VoidResult {
  record: ReturnType<typeof reversalRecord>;
  shopperReachable: boolean;
}

/** A refund likewise, and whether it was made as a void. */
export interface RefundResult extends VoidResult {
  performedAsVoid: boolean;
}

/** The void of a sale as one guarded change: the void record, the sale voided, `payment.void` (and what `also` adds). */
function voidChange(sale: Transaction, now: Date, extras: EventExtras, also: (record: Transaction) => [string, Record<string, unknown>][] = () => []) {
  const record = reversal(sale, 'void', sale.amount, now);
  const answer = reversalRecord(record, sale);
  const events = [['payment.void', { merchant_id: sale.merchant_id, ...answer }] as [string, Record<string, unknown>], ...also(record)];
  // A void needs a sale with nothing refunded.
  return { record, change: guarded(sale, { status: 'voided' }, 0, record, events, now, extras) };
}

function guarded(
  sale: Transaction, changes: GuardedChange['changes'], refundedAtMost: number, record: Transaction, events: [string, Record<string, unknown>][], now: Date,
  extras: EventExtras,
): GuardedChange {
  return {
    merchantId: sale.merchant_id, id: sale.id, seen: sale, refundedAtMost, changes, transactions: [record],
    events: events.map(([type, data]) => eventRow(sale.client_id, type, { ...data, ...extras }, now)),
    entries: reversalEntries(record, sale, now),
  };
}

// With the shopper's contacts: a change with nobody to send a receipt to then needs no read after its answer.
const readSale = (store: Store, merchant: MerchantAccount, id: string, read: 'unlocked' | 'locked') =>
  store.transactions.findWithContacts(merchant.id, id, read === 'locked');

/**
 * POST /order/sales-return. Read without a lock, decided by `decideRefund`, written only while the decision stands
 * (services/guarded.ts): the refunded amount is added in the write, which checks it is still at most the decision's
 * `refundedAtMost`, so concurrent refunds of one sale land side by side and never return more than was charged.
 */
export async function refundSale(
  store: Store, merchant: MerchantAccount, transactionId: string, amountText: string | number, now: Date, extras: EventExtras = {},
  sealFor: (result: RefundResult) => AnswerSeal | undefined = () => undefined,
): Promise<RefundResult> {
  const amount = parseAmount(String(amountText));
  if (amount === null || amount <= 0) throw invalid('amount must be decimal text greater than zero with at most two decimals, e.g. "5.00".');
  return readDecideWrite(store, async (db, read) => {
    const sale = await readSale(db, merchant, transactionId, read);
    const decision = decideRefund(asRefundable(sale), amount, now);
    if (!decision.ok) throw new Refusal(decision.reason, decision.message);
    const asVoid = decision.as === 'void';
    const { record, change } = asVoid
      // The partner asked for a refund and listens for refunds: it hears one, for the same record as the void.
      ? voidChange(sale!, now, extras, (record) => [['payment.refund', { ...refundEvent(record, sale!), performed_as: 'void' }]])
      : refundChange(sale!, amount, decision.refundedAtMost, now, extras);
    const result = { record: reversalRecord(record, sale!), performedAsVoid: asVoid, shopperReachable: canReachShopper(sale!) };
    return (await db.guardedChange({ ...change, seal: sealFor(result) })) ? result : undefined;
  });
}

/** A refund of part or all of a sale as one guarded change: its record, the refunded amount added, `payment.refund`. */
function refundChange(sale: Transaction, amount: number, refundedAtMost: number, now: Date, extras: EventExtras) {
  const record = reversal(sale, 'refund', amount, now);
  return { record, change: guarded(sale, { addRefunded: amount }, refundedAtMost, record, [['payment.refund', refundEvent(record, sale)]], now, extras) };
}

/** POST /order/sales-void: the whole sale, before it settles. */
export async function voidSale(store: Store, merchant: MerchantAccount, transactionId: string, now: Date, extras: EventExtras = {}): Promise<VoidResult> {
  return readDecideWrite(store, async (db, read) => {
    const sale = await readSale(db, merchant, transactionId, read);
    const decision = decideVoid(asRefundable(sale), now);
    if (!decision.ok) throw new Refusal(decision.reason, decision.message);
    const { record, change } = voidChange(sale!, now, extras);
    return (await db.guardedChange(change)) ? { record: reversalRecord(record, sale!), shopperReachable: canReachShopper(sale!) } : undefined;
  });
}
