/**
 * The webhook events of the interface, as `{event_type, data}` with exactly its `data` fields. Narrow on
 * `event_type`:
 *
 *     switch (event.event_type) {
 *       case 'payment.success': event.data.fee_amount; break;
 *       case 'ach.update': if (event.data.status === 'Declined') event.data.return_transaction_id; break;
 *     }
 *
 * Events the service adds later still verify; give your switch a `default` branch that ignores them.
 */

/** A card paid a pay link, a stored customer was charged, or an ACH payment was approved. */
export interface PaymentSuccessData {
  transaction_id: string;
  merchant_id: string;
  amount: number;
  net_amount: number;
  fee_amount: number;
  order_id: string;
  last_four: string;
  brand: string;
  /** The pay link's id, when the payment came through one. */
  link_id?: string;
}

/** A merchant's application was submitted (by POST /onboarding or the hosted form). */
export interface MerchantOnboardingData {
  merchant_key: string;
  merchant_id: string;
  business_name: string;
  email: string;
  public_key: string;
}

/** A merchant was approved: it can take payments now. */
export interface MerchantApprovalData {
  merchant_id: string;
  business_name: string;
  email: string;
  company_id: string;
}

/** The merchant signed the agreement in the hosted onboarding form. */
export interface DocumentsSignedData {
  merchant_id: string;
  business_name: string;
  website: string;
  email: string;
  company_id: string;
}

/**
 * A merchant's onboarding status changed: `pending` when its application is submitted (either way), then
 * `completed` when the review approves it or `declined`, with the reason, when it declines it. The interface names
 * this event without a payload; this one is Paykit's (docs/decisions.md).
 */
export interface MerchantStatusData {
  merchant_id: string;
  company_id: string;
  business_name: string;
  email: string;
  status: 'pending' | 'completed' | 'declined';
  /** Why it was declined; `""` otherwise. */
  reason: string;
  /** ISO 8601 UTC. */
  changed_at: string;
}

/** An ACH payment was decided (sandbox: POST /update-ach). */
export type AchUpdateData = {
  merchant_id: string;
  /** The original ACH transaction. */
  tran_id: string;
  /** `Approved` or `Insufficient Funds`. */
  message: string;
} & (
  | { status: 'Approved'; return_transaction_id?: undefined }
  | { status: 'Declined'; /** The reversal record. */ return_transaction_id: string }
);

/** A sale was voided (POST /order/sales-void, or a full refund performed as a void). */
export interface PaymentVoidData {
  merchant_id: string;
  /** The void record. */
  transaction_id: string;
  Status: 'Success' | 'Error';
  /** The voided original. */
  linked_txn_id: string;
  sales_id: string;
  order_createdfrom: string;
  amount: number;
  txn_id: string;
  txn_date: string;
  type: 'Void';
  /** Added by Paykit: the reason and note of a refund asked for and performed as this void, when one was given. */
  reason?: 'requested_by_customer' | 'duplicate' | 'fraudulent' | 'other';
  reason_note?: string;
  /** Added by Paykit: the widget session (`session_id` of POST /widgets/sessions) the action was made through, if any. */
  widget_session_id?: string;
}

/** A sale was refunded, in part or in full (POST /order/sales-return). */
export interface PaymentRefundData {
  merchant_id: string;
  /** The new refund record. */
  transaction_id: string;
  Status: 'Success';
  /** The refund record too, as the interface defines this event (the refund's REST answer names the sale here). */
  linked_txn_id: string;
  /** The refunded sale: book the refund against this. */
  parent_transaction_id: string;
  sales_id: string;
  order_createdfrom: string;
  /** Positive. */
  amount: number;
  txn_id: string;
  txn_date: string;
  type: 'Refund';
  /**
   * Added by Paykit: `"void"` when the refund asked for was performed as a void (a full refund of an unsettled sale
   * older than 24 hours); `payment.void` then announces the same record (same `transaction_id`).
   */
  performed_as?: 'void';
  /** Added by Paykit: why the merchant refunded, when it said so. */
  reason?: 'requested_by_customer' | 'duplicate' | 'fraudulent' | 'other';
  /** Added by Paykit: the merchant's words with the reason (always there with `other`). */
  reason_note?: string;
  /** Added by Paykit: the widget session (`session_id` of POST /widgets/sessions) the action was made through, if any. */
  widget_session_id?: string;
}

/** One move of a hold (issue 44). */
export interface HoldMove {
  move: 'authorized' | 'increased' | 'decreased' | 'captured' | 'released';
  amount: number;
  /** ISO 8601 UTC. */
  at: string;
}

/** A preauthorization, or its new amount (`preauth.increment`, `preauth.decrement`). */
export interface PreauthData {
  merchant_id: string;
  /** The preauthorization's transaction id. */
  guid: string;
  /** The amount authorized now. */
  amount: number;
  order_id: string;
  /** The customer, or 0 when none is linked. */
  customer_id: string | 0;
  /** Added by Paykit: the amount first authorized, in dollars. */
  authorized_amount?: number;
  /** Added by Paykit: what a capture charged, null until then. */
  captured_amount?: number | null;
  /** Added by Paykit: what went back to the card (the rest at a capture of less, or all at a void), null until then. */
  released_amount?: number | null;
  /** Added by Paykit: the hold's moves, oldest first (`amount` is authorized after a raise or cut, else moved). */
  history?: HoldMove[];
  /** Added by Paykit: the widget session (`session_id` of POST /widgets/sessions) the action was made through, if any. */
  widget_session_id?: string;
}

/** A preauthorization was captured into a completed sale. */
export interface PreauthChargeData {
  merchant_id: string;
  /** The preauthorization given to capture. */
  link_id: string;
  /** The new completed transaction. */
  guid: string;
  amount: number;
  order_id: string;
  net_amount: number;
  /** Added by Paykit: the amount first authorized, in dollars. */
  authorized_amount?: number;
  /** Added by Paykit: what a capture charged, null until then. */
  captured_amount?: number | null;
  /** Added by Paykit: what went back to the card (the rest at a capture of less, or all at a void), null until then. */
  released_amount?: number | null;
  /** Added by Paykit: the hold's moves, oldest first (`amount` is authorized after a raise or cut, else moved). */
  history?: HoldMove[];
  /** Added by Paykit: the widget session (`session_id` of POST /widgets/sessions) the action was made through, if any. */
  widget_session_id?: string;
}

/**
 * A payout of a merchant's available balance to its bank account (docs/payouts.md): `payout.created` when it is made
 * (`pending`), `payout.paid` when it arrived, `payout.failed` when the bank refused it (its money is back in the
 * available balance, and the merchant's payouts pause until its bank account changes).
 */
export interface PayoutData {
  merchant_id: string;
  payout_id: string;
  /** The sum of its ledger entries, in dollars. */
  amount: number;
  currency: 'USD';
  status: 'pending' | 'in_transit' | 'paid' | 'failed';
  /** YYYY-MM-DD: the business day it reaches the bank. */
  arrival_date: string;
  bank_last_four: string;
  entry_count: number;
  /** ISO 8601 UTC. */
  created_at: string;
  /** `account_closed` when it failed; null otherwise. */
  failure_code: string | null;
  failure_message: string | null;
}

/**
 * A dispute of a card sale (docs/disputes.md): `dispute.created` when the card holder's bank opens it,
 * `dispute.updated` when its evidence is submitted or an inquiry becomes a chargeback, `dispute.closed` when it is won
 * or lost; `dispute.funds_withdrawn` and `dispute.funds_reinstated` when its amount and fee leave or return to the
 * balance.
 */
export interface DisputeData {
  merchant_id: string;
  dispute_id: string;
  /** The disputed sale. */
  transaction_id: string;
  /** In dollars. */
  amount: number;
  /** The dispute fee, in dollars: withdrawn with the amount, returned if won. */
  fee_amount: number;
  currency: 'USD';
  reason:
    | 'fraudulent'
    | 'product_not_received'
    | 'product_unacceptable'
    | 'duplicate'
    | 'subscription_canceled'
    | 'credit_not_processed'
    | 'general';
  status: 'inquiry' | 'needs_response' | 'under_review' | 'won' | 'lost';
  funds_withdrawn: boolean;
  /** ISO 8601 UTC. */
  evidence_due_by: string;
  created_at: string;
  updated_at: string;
}

export interface PaykitEventMap {
  'payment.success': PaymentSuccessData;
  'merchant.onboarding': MerchantOnboardingData;
  'merchant.approval': MerchantApprovalData;
  'documents.signed': DocumentsSignedData;
  merchant_status: MerchantStatusData;
  'ach.update': AchUpdateData;
  'payment.void': PaymentVoidData;
  'payment.refund': PaymentRefundData;
  preauth: PreauthData;
  'preauth.increment': PreauthData;
  'preauth.decrement': PreauthData;
  'preauth.charge': PreauthChargeData;
  'payout.created': PayoutData;
  'payout.paid': PayoutData;
  'payout.failed': PayoutData;
  'dispute.created': DisputeData;
  'dispute.updated': DisputeData;
  'dispute.closed': DisputeData;
  'dispute.funds_withdrawn': DisputeData;
  'dispute.funds_reinstated': DisputeData;
}

export type PaykitEventType = keyof PaykitEventMap;

/** One delivery's body: a discriminated union on `event_type`. */
export type PaykitEvent = { [T in PaykitEventType]: { event_type: T; data: PaykitEventMap[T] } }[PaykitEventType];

/** The event of one type, e.g. `PaykitEventOf<'payment.refund'>`. */
export type PaykitEventOf<T extends PaykitEventType> = Extract<PaykitEvent, { event_type: T }>;

/** Every event type of the interface. */
export const PAYKIT_EVENT_TYPES: readonly PaykitEventType[] = [
  'payment.success',
  'merchant.onboarding',
  'merchant.approval',
  'documents.signed',
  'merchant_status',
  'ach.update',
  'payment.void',
  'payment.refund',
  'preauth',
  'preauth.increment',
  'preauth.decrement',
  'preauth.charge',
  'payout.created',
  'payout.paid',
  'payout.failed',
  'dispute.created',
  'dispute.updated',
  'dispute.closed',
  'dispute.funds_withdrawn',
  'dispute.funds_reinstated',
];
