import { historyWith, type HoldMove } from '../domain/preauth.ts';
import { newId } from '../platform/secrets.ts';
import { isoInstant } from '../domain/instants.ts';
import type { EventType } from '../domain/event-types.ts';
import type { Merchant } from '../store/merchants.ts';
import type { Transaction } from '../store/transactions.ts';
import {
  achApprovedEvent,
  approvalEvent,
  documentsSignedEvent,
  merchantStatusEvent,
  onboardingEvent,
  paymentSuccessEvent,
  preauthChargeEvent,
  payoutEvent,
  disputeEvent,
  preauthEvent,
  refundEvent,
  voidEvent,
} from './events.ts';
import type { Payout } from '../store/payouts.ts';
import { PAYOUT_FAILURE } from '../domain/payouts.ts';
import type { Dispute } from '../store/disputes.ts';
import { evidenceDueBy, type DisputeStatus } from '../domain/disputes.ts';

/** The ids a sample names: fresh ones for the sandbox's trigger, fixed ones for the API reference's example. */
export interface SampleIds {
  merchantId: string;
  /** The sale (a refund's or void's original, an ACH payment) or the hold. */
  sale: string;
  /** What an action made: the refund or void record, the ACH return, the sale a capture made. */
  record: string;
}

/** A pay link's card sale of 25.00 (fee 1.03), paid on `at`, and what can be made of it. */
function sampleRecords({ merchantId, sale, record }: SampleIds, at: Date) {
  const when = isoInstant(at);
  const paid: Transaction = {
    id: sale,
    client_id: 'cl_sample',
    merchant_id: merchantId,
    customer_id: null,
    request_id: 'lnk_sample',
    parent_id: null,
    kind: 'sale',
    method: 'card',
    status: 'completed',
    source: 'pay_link',
    order_id: 'order-1042',
    amount: 2500,
    fee_amount: 103,
    net_amount: 2397,
    refunded_amount: 0,
    card_brand: 'Visa',
    last_four: '4242',
    auth_code: 'A1B2C3',
    gateway_ref: 'gw_sample_sale',
    created_at: when,
    completed_at: when,
    settled_at: null,
  };
  const reversal = (kind: 'refund' | 'void' | 'ach_return', amount: number): Transaction => ({
    ...paid,
    id: record,
    parent_id: sale,
    kind,
    amount,
    fee_amount: 0,
    net_amount: -amount,
    gateway_ref: 'gw_sample',
    completed_at: when,
  });
  /** A hold authorized at `amount`, then moved once (its amount after the move, as the real change leaves it). */
  const hold = (amount: number, then?: [HoldMove['move'], number]): Transaction => {
    const authorized = { ...paid, kind: 'preauth' as const, status: 'authorized' as const, amount, hold_history: null };
    const moved = then && {
      amount: then[0] === 'captured' ? amount : then[1],
      hold_history: historyWith(authorized, { move: then[0], amount: then[1], at: when }),
    };
    return { ...authorized, fee_amount: 0, net_amount: 0, ...moved };
  };
  const merchant: Merchant = {
    id: merchantId,
    client_id: 'cl_sample',
    company_id: 'CO-1042',
    status: 'completed',
    business_name: 'Sample Coffee Roasters',
    email: 'owner@example.com',
    first_name: 'Ann',
    last_name: 'Lee',
    phone: '+14155550123',
    website: 'https://coffee.example.com',
    merchant_key_hash: null,
    public_key: 'pk_sample',
    application: null,
    created_at: when,
    submitted_at: when,
    approved_at: when,
    declined_at: null,
    decline_reason: null,
  };
  const payout = (status: Payout['status'], bankLastFour = '6789'): Payout => ({
    id: record.replace(/^txn_/, 'po_'),
    client_id: 'cl_sample',
    merchant_id: merchantId,
    period: when.slice(0, 10),
    amount: 7161,
    entry_count: 7,
    status,
    bank_last_four: bankLastFour,
    arrival_date: when.slice(0, 10),
    created_at: when,
    updated_at: when,
    failure_code: status === 'failed' ? PAYOUT_FAILURE.code : null,
    failure_message: status === 'failed' ? PAYOUT_FAILURE.message(bankLastFour) : null,
  });
  const dispute = (status: DisputeStatus): Dispute => ({
    id: record.replace(/^txn_/, 'dp_'),
    client_id: 'cl_sample',
    merchant_id: merchantId,
    transaction_id: paid.id,
    amount: paid.amount,
    reason: 'product_not_received',
    status,
    funds_withdrawn: status === 'won' ? 0 : 1,
    evidence_due_by: isoInstant(evidenceDueBy(at)),
    evidence: '{}',
    file_count: 0,
    history: '[]',
    submitted_at: null,
    closed_at: null,
    created_at: when,
    updated_at: when,
  });
  return { paid, reversal, hold, merchant, payout, dispute };
}

/**
 * Each type's data, made by the functions that make real deliveries (services/events.ts) from sample records:
 * test/server/webhooks/event-samples.test.ts compares each with the event a real flow delivers, field by field, and
 * test/client/sample-events.check.ts with the types paykit/client gives it.
 */
export const SAMPLES = {
  'payment.success': (ids: SampleIds, at: Date) => paymentSuccessEvent(sampleRecords(ids, at).paid, 'lnk_sample'),
  'merchant.onboarding': (ids: SampleIds, at: Date) => onboardingEvent(sampleRecords(ids, at).merchant, 'mk_sample'),
  'merchant.approval': (ids: SampleIds, at: Date) => approvalEvent(sampleRecords(ids, at).merchant),
  'documents.signed': (ids: SampleIds, at: Date) => documentsSignedEvent(sampleRecords(ids, at).merchant),
  merchant_status: (ids: SampleIds, at: Date) =>
    merchantStatusEvent(sampleRecords(ids, at).merchant, 'completed', '', at),
  'ach.update': (ids: SampleIds, at: Date) =>
    achApprovedEvent({ ...sampleRecords(ids, at).paid, method: 'ach', card_brand: 'ACH', last_four: '6789' }),
  'payment.void': (ids: SampleIds, at: Date) => {
    const { paid, reversal } = sampleRecords(ids, at);
    return voidEvent(reversal('void', paid.amount), paid);
  },
  'payment.refund': (ids: SampleIds, at: Date) => {
    const { paid, reversal } = sampleRecords(ids, at);
    return refundEvent(reversal('refund', 500), paid);
  },
  preauth: (ids: SampleIds, at: Date) => preauthEvent(sampleRecords(ids, at).hold(4000)),
  'preauth.increment': (ids: SampleIds, at: Date) =>
    preauthEvent(sampleRecords(ids, at).hold(4000, ['increased', 5500])),
  'preauth.decrement': (ids: SampleIds, at: Date) =>
    preauthEvent(sampleRecords(ids, at).hold(4000, ['decreased', 3000])),
  'preauth.charge': (ids: SampleIds, at: Date) => {
    const { hold, paid } = sampleRecords(ids, at);
    return preauthChargeEvent(hold(4000, ['captured', 4000]), {
      ...paid,
      id: ids.record,
      parent_id: ids.sale,
      amount: 4000,
      fee_amount: 146,
      net_amount: 3854,
    });
  },
  'payout.created': (ids: SampleIds, at: Date) => payoutEvent(sampleRecords(ids, at).payout('pending')),
  'payout.paid': (ids: SampleIds, at: Date) => payoutEvent(sampleRecords(ids, at).payout('paid')),
  'payout.failed': (ids: SampleIds, at: Date) => payoutEvent(sampleRecords(ids, at).payout('failed', '1116')),
  'dispute.created': (ids: SampleIds, at: Date) => disputeEvent(sampleRecords(ids, at).dispute('needs_response')),
  'dispute.updated': (ids: SampleIds, at: Date) => disputeEvent(sampleRecords(ids, at).dispute('under_review')),
  'dispute.closed': (ids: SampleIds, at: Date) => disputeEvent(sampleRecords(ids, at).dispute('won')),
  'dispute.funds_withdrawn': (ids: SampleIds, at: Date) =>
    disputeEvent(sampleRecords(ids, at).dispute('needs_response')),
  'dispute.funds_reinstated': (ids: SampleIds, at: Date) => disputeEvent(sampleRecords(ids, at).dispute('won')),
} satisfies Record<EventType, (ids: SampleIds, at: Date) => object>;

/**
 * The data of a sandbox test event (`POST /sandbox/webhooks/trigger`): what a real event of the type carries, with
 * fresh transaction ids, naming `merchantId` (one of the client's merchants, or a made-up one).
 */
export function sampleEventData(
  type: EventType,
  merchantId: string,
  now: Date,
  ids: Partial<SampleIds> = {},
): Record<string, unknown> {
  return { ...SAMPLES[type]({ merchantId, sale: newId('txn_'), record: newId('txn_'), ...ids }, now) };
}
