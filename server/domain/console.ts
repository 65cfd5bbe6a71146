/** The payments console's rules (issue 32): what a row may still become, and what "undo sale" does. */
import { AUTO_SETTLE_MS, decideRefund, decideVoid, REFUND_ERRORS, VOID_ERRORS, type Refundable } from './refunds.ts';
import { PREAUTH_ERRORS } from './preauth.ts';
import { formatAmount, parseAmount } from './money.ts';
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

/**
 * The refusals the console shows, in a merchant's words (issue 44): the interface's messages are fixed for the API and
 * speak of its fields; the console says what is wrong with this payment and what to do instead. Others pass as they are.
 */
export function merchantWords(message: string, sale: Refundable | undefined): string {
  switch (message) {
    case REFUND_ERRORS.notFound:
      return 'Only a completed payment can be refunded: this one is not (a bank payment can be once the bank approves it).';
    case REFUND_ERRORS.alreadyRefunded:
      return 'This payment was refunded in full already: there is nothing left to refund.';
    case REFUND_ERRORS.overOriginal:
    case REFUND_ERRORS.overRemaining:
      return `Refund at most ${formatAmount(sale ? refundableAmount(sale) : 0)}: that is what is left of this payment.`;
    case VOID_ERRORS.notFound:
      return 'Only a completed payment can be voided: this one is not.';
    case VOID_ERRORS.settled:
      return 'This payment has settled, so it can no longer be voided: refund it instead.';
    case PREAUTH_ERRORS.notFound:
      return 'This hold was not found: reload the list and try again.';
    case PREAUTH_ERRORS.captured:
      return 'This hold was captured already: refund or void the payment it made instead.';
    case PREAUTH_ERRORS.mismatch:
      return 'This hold changed meanwhile: reload it to see its amount now, then try again.';
    default:
      return message;
  }
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
export const CONSOLE_STATUSES = ['completed', 'refunded', 'voided', 'pending', 'declined', 'disputed'] as const;
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
  // A disputed sale is completed or refunded in part; the listing reads it by its dispute (migration 026).
  disputed: ['completed', 'refunded'],
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
 * also an amount, with a currency sign or grouping commas as typed; text with an @ also the e-mail a pay link was sent to.
 */
export interface SearchTerms {
  text: string;
  key: string;
  lastFour: string | undefined;
  amount: number | undefined;
  email: string | undefined;
}

const foldCase = (text: string) => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

/**
 * An amount as a merchant types it (issue 44): a dollar sign or USD before or after, and commas between groups of
 * three digits, tolerated ("$1,234.50", "12.50 USD"); the number alone otherwise.
 */
function typedAmount(text: string): number | undefined {
  const number = text.replace(/^(?:US\$|\$|USD)\s*|\s*(?:\$|USD)$/gi, '');
  const plain = /^\d{1,3}(,\d{3})+(\.\d{1,2})?$/.test(number) ? number.replaceAll(',', '') : number;
  return /^\d{1,13}(\.\d{1,2})?$/.test(plain) ? (parseAmount(plain) ?? undefined) : undefined;
}

export function searchTerms(text: string): SearchTerms {
  const trimmed = text.trim();
  const amount = typedAmount(trimmed);
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
  'released',
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
