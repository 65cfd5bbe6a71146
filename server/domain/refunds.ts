/** Refund and void eligibility (interface: States and transitions, Errors, rule 1). */
import { refusedBecause, type RefusedDecision } from './refusals.ts';

export const REFUND_ERRORS = {
  notFound: 'Payment method not found.',
  overOriginal: 'Amount should not be greater than sales charge amount.',
  overRemaining: 'The amount should not be greater than the remaining amount.',
  alreadyRefunded: 'Refund already done. No refund allowed.',
} as const;

export const VOID_ERRORS = {
  notFound: 'Transaction not found or not completed.',
  settled: 'The transaction has been settled, a void is not allowed.',
  refunded: 'The transaction has refunds; refund the rest instead of voiding it.',
  voided: 'The transaction was already voided.',
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;
/** Unsettled transactions settle by themselves this long after they complete. */
export const AUTO_SETTLE_MS = 48 * 60 * 60 * 1000;

export interface Refundable {
  kind: string;
  status: string;
  amount: number;
  refunded: number;
  completedAt: string | null;
  settledAt: string | null;
  /** The sale's dispute: a disputed sale is neither refunded nor voided, its money is the dispute's (docs/disputes.md). */
  disputeId?: string | null | undefined;
}

/** The 409 that names the sale's dispute. */
const disputedSale = (disputeId: string) =>
  refusedBecause(
    'conflict',
    `The transaction is disputed (${disputeId}): a disputed sale cannot be refunded or voided; answer the dispute instead.`,
  );

/** Settled once the batch closed, or on its own 48 hours after completion. */
export function isSettled(sale: Pick<Refundable, 'completedAt' | 'settledAt'>, now: Date): boolean {
  if (sale.settledAt) return true;
  return sale.completedAt !== null && now.getTime() - Date.parse(sale.completedAt) >= AUTO_SETTLE_MS;
}

/**
 * `refundedAtMost`: the decision stands as long as the sale's refunded amount is at most this (other refunds may land
 * between the read and the write): the write checks it, so concurrent refunds of one sale need not take turns.
 */
export type RefundDecision = { ok: true; as: 'refund' | 'void'; refundedAtMost: number } | RefusedDecision;

/**
 * Whether `requested` minor units may be refunded. A full refund of an unsettled sale older than 24 hours
 * is performed as a void (rule 1 as the contract reads it); a settled one is refunded.
 */
export function decideRefund(sale: Refundable | undefined, requested: number, now: Date): RefundDecision {
  if (!sale || sale.kind !== 'sale' || sale.status !== 'completed')
    return refusedBecause('not_found', REFUND_ERRORS.notFound);
  if (sale.disputeId) return disputedSale(sale.disputeId);
  if (sale.refunded >= sale.amount) return refusedBecause('conflict', REFUND_ERRORS.alreadyRefunded);
  if (requested > sale.amount) return refusedBecause('invalid_request', REFUND_ERRORS.overOriginal);
  if (requested > sale.amount - sale.refunded) return refusedBecause('invalid_request', REFUND_ERRORS.overRemaining);
  const full = sale.refunded === 0 && requested === sale.amount;
  const olderThanADay = sale.completedAt !== null && now.getTime() - Date.parse(sale.completedAt) > DAY_MS;
  // Up to `amount - requested` refunded, the requested amount still fits, and a refund stays a refund: a void needs
  // a full refund of an untouched sale, whose bound is 0.
  return {
    ok: true,
    as: full && olderThanADay && !isSettled(sale, now) ? 'void' : 'refund',
    refundedAtMost: sale.amount - requested,
  };
}

export type VoidDecision = { ok: true } | RefusedDecision;

/** A completed sale may be voided until it settles, and only whole; voiding it again is a conflict that says so. */
export function decideVoid(sale: Refundable | undefined, now: Date): VoidDecision {
  if (sale?.kind === 'sale' && sale.status === 'voided') return refusedBecause('conflict', VOID_ERRORS.voided);
  if (!sale || sale.kind !== 'sale' || sale.status !== 'completed')
    return refusedBecause('not_found', VOID_ERRORS.notFound);
  if (sale.disputeId) return disputedSale(sale.disputeId);
  if (isSettled(sale, now)) return refusedBecause('conflict', VOID_ERRORS.settled);
  if (sale.refunded > 0) return refusedBecause('conflict', VOID_ERRORS.refunded);
  return { ok: true };
}

/** Why a merchant refunded (issue 44), optional; `other` needs the merchant's own words in the note. */
export const REFUND_REASONS = ['requested_by_customer', 'duplicate', 'fraudulent', 'other'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];
const MAX_REFUND_NOTE = 200;

export type ReasonDecision = { ok: true; reason: RefundReason | null; note: string | null } | RefusedDecision;

/** A refund's reason and note as given (absent, or text from any edge): the pair to store, or what to send instead. */
export function decideRefundReason(reason: string | undefined, note: string | undefined): ReasonDecision {
  const words = note?.trim() ?? '';
  if (reason === undefined || reason === '') {
    if (words) return refusedBecause('invalid_request', 'reason_note goes with a reason: send reason "other" too.');
    return { ok: true, reason: null, note: null };
  }
  if (!(REFUND_REASONS as readonly string[]).includes(reason))
    return refusedBecause('invalid_request', `reason must be one of ${REFUND_REASONS.join(', ')}; "${reason}" is not.`);
  if (reason === 'other' && !words)
    return refusedBecause('invalid_request', 'reason "other" needs a reason_note: say in a few words why you refund.');
  if (words.length > MAX_REFUND_NOTE || /[\u0000-\u001f\u007f]/.test(words))
    return refusedBecause('invalid_request', `reason_note must be one line of at most ${MAX_REFUND_NOTE} characters.`);
  return { ok: true, reason: reason as RefundReason, note: words || null };
}
