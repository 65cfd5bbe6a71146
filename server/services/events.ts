import { holdTotals, movesOf } from '../domain/preauth.ts';
import type { Merchant } from '../store/merchants.ts';
import type { Transaction } from '../store/transactions.ts';
import type { Payout } from '../store/payouts.ts';
import type { Dispute } from '../store/disputes.ts';
import { DISPUTE_FEE } from '../domain/disputes.ts';
import { toMajorNumber } from '../domain/money.ts';
import { isoInstant } from '../domain/instants.ts';

/**
 * The `data` of every event type, with exactly the interface's fields: what the services write to the outbox, and
 * what the sandbox's test events are made of (services/sample-events.ts), so a sample cannot say other than a delivery.
 */

type MerchantFields = Pick<Merchant, 'id' | 'company_id' | 'business_name' | 'email'>;

export function paymentSuccessEvent(sale: Transaction, linkId: string | null) {
  return {
    transaction_id: sale.id,
    merchant_id: sale.merchant_id,
    amount: toMajorNumber(sale.amount),
    net_amount: toMajorNumber(sale.net_amount),
    fee_amount: toMajorNumber(sale.fee_amount),
    order_id: sale.order_id,
    last_four: sale.last_four,
    brand: sale.card_brand,
    ...(linkId ? { link_id: linkId } : {}),
  };
}

/** `merchant.onboarding`: the merchant key, whole, once (the outbox masks it once delivered). */
export function onboardingEvent(
  merchant: Pick<Merchant, 'id' | 'business_name' | 'email' | 'public_key'>,
  merchantKey: string,
) {
  return {
    merchant_key: merchantKey,
    merchant_id: merchant.id,
    business_name: merchant.business_name,
    email: merchant.email,
    public_key: merchant.public_key,
  };
}

export function approvalEvent(merchant: MerchantFields) {
  return {
    merchant_id: merchant.id,
    business_name: merchant.business_name,
    email: merchant.email,
    company_id: merchant.company_id ?? '',
  };
}

export function documentsSignedEvent(merchant: MerchantFields & Pick<Merchant, 'website'>) {
  return {
    merchant_id: merchant.id,
    business_name: merchant.business_name,
    website: merchant.website,
    email: merchant.email,
    company_id: merchant.company_id ?? '',
  };
}

/** `merchant_status`: the merchant's onboarding status changed (payload decided in docs/decisions.md). */
export function merchantStatusEvent(
  merchant: MerchantFields,
  status: 'pending' | 'completed' | 'declined',
  reason: string,
  at: Date,
) {
  return {
    merchant_id: merchant.id,
    company_id: merchant.company_id ?? '',
    business_name: merchant.business_name,
    email: merchant.email,
    status,
    reason,
    changed_at: isoInstant(at),
  };
}

/** `payout.created`, `payout.paid`, `payout.failed`: the payout as it stands (docs/payouts.md). */
export function payoutEvent(payout: Payout) {
  return {
    merchant_id: payout.merchant_id,
    payout_id: payout.id,
    amount: toMajorNumber(payout.amount),
    currency: 'USD' as const,
    status: payout.status,
    arrival_date: payout.arrival_date,
    bank_last_four: payout.bank_last_four,
    entry_count: payout.entry_count,
    created_at: payout.created_at,
    failure_code: payout.failure_code,
    failure_message: payout.failure_message,
  };
}

/**
 * `dispute.created`, `dispute.updated`, `dispute.closed`, and the ledger's `dispute.funds_withdrawn` and
 * `dispute.funds_reinstated`: the dispute as it stands (docs/disputes.md).
 */
export function disputeEvent(dispute: Dispute) {
  return {
    merchant_id: dispute.merchant_id,
    dispute_id: dispute.id,
    transaction_id: dispute.transaction_id,
    amount: toMajorNumber(dispute.amount),
    fee_amount: toMajorNumber(DISPUTE_FEE),
    currency: 'USD' as const,
    reason: dispute.reason,
    status: dispute.status,
    funds_withdrawn: dispute.funds_withdrawn === 1,
    evidence_due_by: dispute.evidence_due_by,
    created_at: dispute.created_at,
    updated_at: dispute.updated_at,
  };
}

/** `ach.update` of an approved ACH payment. */
export function achApprovedEvent(sale: Transaction) {
  return { merchant_id: sale.merchant_id, status: 'Approved' as const, tran_id: sale.id, message: 'Approved' };
}

/** `ach.update` of a declined one, with its reversal record (`return_transaction_id`). */
export function achDeclinedEvent(sale: Transaction, returned: Transaction) {
  return {
    merchant_id: sale.merchant_id,
    status: 'Declined' as const,
    tran_id: sale.id,
    message: 'Insufficient Funds',
    return_transaction_id: returned.id,
  };
}

/**
 * The record the interface answers for a refund or a void (Resources: Refund and void record): `transaction_id` the
 * new record, `linked_txn_id` the original. `payment.void` is this record beside `merchant_id`.
 */
/** Added by Paykit (issue 44): a refund's reason and note, only when the merchant gave them (else it reads as before). */
const reasonFields = (record: Transaction) => ({
  ...(record.refund_reason ? { reason: record.refund_reason } : {}),
  ...(record.refund_note ? { reason_note: record.refund_note } : {}),
});

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
    ...reasonFields(record),
  };
}

export function voidEvent(record: Transaction, sale: Transaction) {
  return { merchant_id: sale.merchant_id, ...reversalRecord(record, sale), type: 'Void' as const };
}

/**
 * `payment.refund`, as the interface defines the event (unlike the refund's answer): `linked_txn_id` is the refund
 * record itself, like `transaction_id`; the refunded sale is `parent_transaction_id`.
 */
export function refundEvent(record: Transaction, sale: Transaction) {
  return {
    merchant_id: sale.merchant_id,
    transaction_id: record.id,
    Status: 'Success' as const,
    linked_txn_id: record.id,
    parent_transaction_id: sale.id,
    sales_id: record.id,
    order_createdfrom: sale.source,
    amount: toMajorNumber(record.amount),
    txn_id: record.gateway_ref,
    txn_date: record.created_at,
    type: 'Refund' as const,
    ...reasonFields(record),
  };
}

/**
 * Added by Paykit (issue 44): the hold's history, amounts in dollars as the events write them, and what it adds up
 * to (released and captured are null until they happen).
 */
function holdFields(auth: Transaction) {
  const moves = movesOf(auth);
  const totals = holdTotals(moves);
  const major = (minor: number | null) => (minor === null ? null : toMajorNumber(minor));
  return {
    authorized_amount: toMajorNumber(totals.authorized),
    captured_amount: major(totals.captured),
    released_amount: major(totals.released),
    history: moves.map((m) => ({ move: m.move, amount: toMajorNumber(m.amount), at: m.at })),
  };
}

/** `preauth`, `preauth.increment` and `preauth.decrement`: the hold with the amount authorized now. */
export function preauthEvent(auth: Transaction) {
  return {
    merchant_id: auth.merchant_id,
    guid: auth.id,
    amount: toMajorNumber(auth.amount),
    order_id: auth.order_id,
    customer_id: auth.customer_id ?? (0 as const),
    ...holdFields(auth),
  };
}

/** `preauth.charge`: `link_id` the hold captured, `guid` the completed sale the capture made. */
export function preauthChargeEvent(auth: Transaction, sale: Transaction) {
  return {
    merchant_id: sale.merchant_id,
    link_id: auth.id,
    guid: sale.id,
    amount: toMajorNumber(sale.amount),
    order_id: sale.order_id,
    net_amount: toMajorNumber(sale.net_amount),
    ...holdFields(auth),
  };
}
