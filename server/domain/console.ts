/** The payments console's rules (issue 32): what a row may still become, and what "undo sale" does. */
import { AUTO_SETTLE_MS, decideRefund, decideVoid, type Refundable } from './refunds.ts';
import { parseAmount } from './money.ts';
import { refusedBecause, type RefusedDecision } from './refusals.ts';

/** Minor units that may still be refunded: the rest of a completed sale, else nothing. */
export function refundableAmount(sale: Refundable): number {
  return sale.kind === 'sale' && sale.status === 'completed' && !sale.disputeId
    ? Math.max(0, sale.amount - sale.refunded)
    : 0;
}

/** Until when a void is possible: the moment the sale settles on its own, while nothing stops a void now; else null. */
export function voidableUntil(sale: Refundable, now: Date): string | null {
  if (!decideVoid(sale, now).ok || sale.completedAt === null) return null;
  return new Date(Date.parse(sale.completedAt) + AUTO_SETTLE_MS).toISOString();
}

export type UndoDecision = { ok: true; as: 'void' } | { ok: true; as: 'refund'; amount: number } | RefusedDecision;

const UNDO_ERRORS = {
  nothingLeft: 'Nothing is left to undo: the sale was voided or refunded in full.',
} as const;

/**
 * "Undo sale": a void while the rules allow one (completed, not settled, nothing refunded), which returns the fee
 * too; otherwise a refund of everything still refundable. Refused, with the refund's reason, when neither is possible.
 */
export function decideUndo(sale: Refundable | undefined, now: Date): UndoDecision {
  if (decideVoid(sale, now).ok) return { ok: true, as: 'void' };
  if (sale && sale.kind === 'sale' && sale.status === 'voided')
    return refusedBecause('conflict', UNDO_ERRORS.nothingLeft);
  const rest = sale ? refundableAmount(sale) : 0;
  const refund = decideRefund(sale, rest > 0 ? rest : (sale?.amount ?? 0), now);
  if (!refund.ok) return refund;
  return { ok: true, as: 'refund', amount: rest };
}

/** The console's status filter, over the stored kind, status and refunded amount. */
export const CONSOLE_STATUSES = ['completed', 'refunded', 'voided', 'pending', 'declined'] as const;
export type ConsoleStatus = (typeof CONSOLE_STATUSES)[number];

/**
 * What the console tells of a transaction in one word, from its kind, status and refunded amount (migration 019 indexes
 * it): a sale is completed (nothing refunded), refunded (in part or whole), voided, pending or declined (ACH); a refund,
 * void or ACH return is its kind; a hold is hold_ and its status.
 */
export const LISTED_STATES = [
  'completed',
  'refunded',
  'voided',
  'pending',
  'declined',
  'refund',
  'void',
  'ach_return',
] as const;
export const HOLD_STATES = ['hold_authorized', 'hold_captured', 'hold_voided'] as const;
export type ConsoleState = (typeof LISTED_STATES)[number] | (typeof HOLD_STATES)[number];

const STATES_OF_KIND: Record<'sale' | 'refund' | 'void' | 'hold', readonly ConsoleState[]> = {
  sale: ['completed', 'refunded', 'voided', 'pending', 'declined'],
  refund: ['refund'],
  void: ['void'],
  hold: HOLD_STATES,
};
/** Refunds, voids and returns are completed when made, and stay so. */
const STATES_OF_STATUS: Record<ConsoleStatus, readonly ConsoleState[]> = {
  completed: ['completed', 'refund', 'void', 'ach_return'],
  refunded: ['refunded'],
  voided: ['voided', 'hold_voided'],
  pending: ['pending'],
  declined: ['declined'],
};

/** The states the console's kind and status filters match together; undefined when neither is given (every listed state). */
export function consoleStates(
  kind: keyof typeof STATES_OF_KIND | undefined,
  status: ConsoleStatus | undefined,
): readonly ConsoleState[] | undefined {
  if (!kind && !status) return undefined;
  const ofKind = kind ? STATES_OF_KIND[kind] : LISTED_STATES;
  return status ? ofKind.filter((state) => STATES_OF_STATUS[status].includes(state)) : ofKind;
}

/**
 * What a search text may match: a transaction id exactly; an order id in any case, exactly or by its beginning (`key`:
 * ASCII letters lowercased, as migration 019 indexes order ids and e-mails); four digits also a last four; decimal text
 * also an amount; text with an @ also the e-mail a pay link was sent to.
 */
export interface SearchTerms {
  text: string;
  key: string;
  lastFour: string | undefined;
  amount: number | undefined;
  email: string | undefined;
}

const foldCase = (text: string) => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

export function searchTerms(text: string): SearchTerms {
  const trimmed = text.trim();
  const amount = /^\d{1,13}(\.\d{1,2})?$/.test(trimmed) ? (parseAmount(trimmed) ?? undefined) : undefined;
  const key = foldCase(trimmed);
  return {
    text: trimmed,
    key,
    lastFour: /^\d{4}$/.test(trimmed) ? trimmed : undefined,
    amount,
    email: trimmed.includes('@') ? key : undefined,
  };
}

/** What a transaction's timeline tells, in order of time. */
export const TIMELINE_STEPS = [
  'created',
  'authorized',
  'captured',
  'refunded',
  'voided',
  'ach_pending',
  'ach_approved',
  'ach_declined',
  'settled',
  'receipt_sent',
] as const;
export type TimelineStep = { at: string; what: (typeof TIMELINE_STEPS)[number]; amount?: string };

/** The console's card brand filter, as the service stores each brand. */
export const CONSOLE_CARD_BRANDS = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  ach: 'ACH',
} as const;
