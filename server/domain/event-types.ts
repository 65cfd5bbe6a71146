/** Every event type the service sends (docs/webhooks.md). */
export const EVENT_TYPES = [
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
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
