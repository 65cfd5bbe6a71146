import type { Store } from '../store/store.ts';
import type { Transaction } from '../store/transactions.ts';
import type { MerchantAccount } from '../store/merchants.ts';
import { Refusal, invalid } from '../domain/refusals.ts';
import { positiveAmount } from '../domain/money.ts';
import { decideRefund, decideRefundReason, decideVoid } from '../domain/refunds.ts';
import { newId } from '../platform/secrets.ts';
import { isoInstant } from '../domain/instants.ts';
import { eventRow } from '../store/events.ts';
import type { Change } from '../store/changes.ts';
import type { TransactionStatus } from '../store/schema.ts';
import type { Decided } from './guarded.ts';
import { canReachShopper } from './receipts.ts';
import { reversalEntries } from '../domain/ledger.ts';
import { entryRows } from '../store/ledger.ts';
import { refundEvent, reversalRecord, voidEvent } from './events.ts';

const asRefundable = (sale: Transaction | undefined) =>
  sale && {
    kind: sale.kind,
    status: sale.status,
    amount: sale.amount,
    refunded: sale.refunded_amount,
    completedAt: sale.completed_at,
    settledAt: sale.settled_at,
    disputeId: sale.dispute_id,
  };

/** A refund's reason as stored (migration 022): both null when none was given. */
type Why = { refund_reason: Transaction['refund_reason']; refund_note: string | null };
const NO_REASON: Why = { refund_reason: null, refund_note: null };

function reversal(sale: Transaction, kind: 'refund' | 'void', amount: number, now: Date, why = NO_REASON): Transaction {
  return {
    id: newId('txn_'),
    client_id: sale.client_id,
    merchant_id: sale.merchant_id,
    customer_id: sale.customer_id,
    request_id: sale.request_id,
    parent_id: sale.id,
    kind,
    method: sale.method,
    status: 'completed',
    source: sale.source,
    order_id: sale.order_id,
    amount,
    fee_amount: 0,
    // A void returns the processor's fee with the sale; a refund does not.
    net_amount: kind === 'void' ? -sale.net_amount : -amount,
    refunded_amount: 0,
    card_brand: sale.card_brand,
    last_four: sale.last_four,
    auth_code: sale.auth_code,
    gateway_ref: newId('gw_'),
    created_at: isoInstant(now),
    completed_at: isoInstant(now),
    settled_at: null,
    // A refund's receipt goes where the sale's went, the address typed on the pay page included.
    receipt_email: sale.receipt_email ?? null,
    ...why,
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

/** A change to a sale decided on `sale` as read: it applies only while the sale still reads so (changes.ts). */
function saleChange(
  sale: Transaction,
  guard: { set?: { status: TransactionStatus }; add?: number; refundedAtMost: number },
  record: Transaction,
  events: [string, Record<string, unknown>][],
  now: Date,
  extras: EventExtras,
): Change {
  return {
    guards: [
      {
        table: 'transactions',
        where: {
          id: sale.id,
          merchant_id: sale.merchant_id,
          status: sale.status,
          amount: sale.amount,
          settled_at: sale.settled_at,
          // A dispute opened since the read refuses it (services/disputes.ts sets it in its own guard).
          dispute_id: null,
        },
        // A refund's decision holds while what was refunded meanwhile still leaves room for it (`refundedAtMost`).
        atMost: { refunded_amount: guard.refundedAtMost },
        set: guard.set ?? {},
        ...(guard.add ? { add: { refunded_amount: guard.add } } : {}),
      },
    ],
    rows: [{ table: 'transactions', row: record }, ...entryRows(reversalEntries(record, sale, now))],
    events: events.map(([type, data]) => eventRow(sale.client_id, type, { ...data, ...extras }, now)),
  };
}

/** The void of a sale: the void record, the sale voided, `payment.void` (and what `also` adds). A void needs nothing refunded. */
function voidChange(
  sale: Transaction,
  now: Date,
  extras: EventExtras,
  also: (record: Transaction) => [string, Record<string, unknown>][] = () => [],
  why = NO_REASON,
) {
  const record = reversal(sale, 'void', sale.amount, now, why);
  const events: [string, Record<string, unknown>][] = [['payment.void', voidEvent(record, sale)], ...also(record)];
  return {
    record,
    change: saleChange(sale, { set: { status: 'voided' }, refundedAtMost: 0 }, record, events, now, extras),
  };
}

/** A refund of part or all of a sale: its record, the refunded amount added in the write, `payment.refund`. */
function refundChange(
  sale: Transaction,
  amount: number,
  refundedAtMost: number,
  now: Date,
  extras: EventExtras,
  why: Why,
) {
  const record = reversal(sale, 'refund', amount, now, why);
  return {
    record,
    change: saleChange(
      sale,
      { add: amount, refundedAtMost },
      record,
      [['payment.refund', refundEvent(record, sale)]],
      now,
      extras,
    ),
  };
}

/**
 * POST /order/sales-return, decided on the sale as read by `decideRefund`; the change adds the refunded amount in its
 * write, which checks it is still at most the decision's `refundedAtMost`, so concurrent refunds of one sale land side
 * by side and never return more than was charged.
 */
export async function refundSale(
  store: Store,
  merchant: MerchantAccount,
  transactionId: string,
  amountText: string | number,
  now: Date,
  extras: EventExtras = {},
  reason?: { reason?: string | undefined; reason_note?: string | undefined },
): Promise<Decided<RefundResult>> {
  const amount = positiveAmount('amount', amountText, '5.00');
  if (typeof amount !== 'number') throw invalid(amount.problem);
  const why = decideRefundReason(reason?.reason, reason?.reason_note);
  if (!why.ok) throw new Refusal(why.reason, why.message);
  const stored: Why = { refund_reason: why.reason, refund_note: why.note };
  // With the shopper's contacts: a change with nobody to send a receipt to then needs no read after its answer.
  const sale = await store.transactions.findForChange(merchant.id, transactionId);
  const decision = decideRefund(asRefundable(sale), amount, now);
  if (!decision.ok) throw new Refusal(decision.reason, decision.message);
  const asVoid = decision.as === 'void';
  const { record, change } = asVoid
    ? // The partner asked for a refund and listens for refunds: it hears one, for the same record as the void.
      voidChange(
        sale!,
        now,
        extras,
        (record) => [['payment.refund', { ...refundEvent(record, sale!), performed_as: 'void' }]],
        stored,
      )
    : refundChange(sale!, amount, decision.refundedAtMost, now, extras, stored);
  return {
    change,
    result: {
      record: reversalRecord(record, sale!),
      performedAsVoid: asVoid,
      shopperReachable: canReachShopper(sale!),
    },
  };
}

/** POST /order/sales-void: the whole sale, before it settles. */
export async function voidSale(
  store: Store,
  merchant: MerchantAccount,
  transactionId: string,
  now: Date,
  extras: EventExtras = {},
): Promise<Decided<VoidResult>> {
  const sale = await store.transactions.findForChange(merchant.id, transactionId);
  const decision = decideVoid(asRefundable(sale), now);
  if (!decision.ok) throw new Refusal(decision.reason, decision.message);
  const { record, change } = voidChange(sale!, now, extras);
  return { change, result: { record: reversalRecord(record, sale!), shopperReachable: canReachShopper(sale!) } };
}
