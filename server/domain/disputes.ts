/**
 * Disputes (chargebacks) of card sales (docs/disputes.md): which sale may be disputed, what each step may do, when the
 * sandbox decides one, and the ledger entries each step writes. No storage, no clock: the time is an argument.
 */
import { refusedBecause, type RefusedDecision } from './refusals.ts';
import { formatAmount } from './money.ts';
import { reversalAvailableOn, saleAvailableOn, type LedgerEntry, type MoneyRecord } from './ledger.ts';
import {
  isSafeFilename,
  MAX_EVIDENCE_FILE_BYTES,
  sniffEvidenceType,
  type EvidenceFileType,
} from '../../rules/evidence-files.ts';

export const DISPUTE_REASONS = [
  'fraudulent',
  'product_not_received',
  'product_unacceptable',
  'duplicate',
  'subscription_canceled',
  'credit_not_processed',
  'general',
] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];

/** `inquiry` (no money moved yet) → `needs_response` → `under_review` → `won` or `lost`. */
export const DISPUTE_STATUSES = ['inquiry', 'needs_response', 'under_review', 'won', 'lost'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/** The fee a dispute costs its merchant, in minor units: withdrawn when it opens, returned if it is won. */
export const DISPUTE_FEE = 1500;
const DAY_MS = 86_400_000;
/** The sandbox's time to answer: 7 days on its clock. */
export const EVIDENCE_DAYS = 7;
/** A dispute submitted without the sandbox's words is won this long after its submission. */
export const REVIEW_DAYS = 7;

/** The words an explanation carries to choose the sandbox's outcome when the clock moves. */
export const OUTCOME_WORDS = { won: 'winning_evidence', lost: 'losing_evidence' } as const;

export const EVIDENCE_TEXT_FIELDS = [
  'product_description',
  'customer_communication',
  'refund_policy',
  'shipping_carrier',
  'shipping_tracking_number',
  'service_date',
  'explanation',
] as const;
export type EvidenceText = Partial<Record<(typeof EVIDENCE_TEXT_FIELDS)[number], string>>;

/** A dispute as the rules read it. */
export interface DisputeState {
  id: string;
  status: DisputeStatus;
  /** 1 once its amount and fee left the balance (never for an inquiry). */
  funds_withdrawn: number;
  evidence_due_by: string;
  submitted_at: string | null;
  evidence: string;
  file_count: number;
}

export const DISPUTE_ERRORS = {
  notCard: 'Only a completed card sale can be disputed.',
  nothingLeft: 'The sale was refunded in full: nothing is left to dispute.',
  overRemaining: (left: number) => `amount must be at most ${formatAmount(left)}, what was not refunded of the sale.`,
  already: (id: string) => `The sale is already disputed (${id}).`,
  closed: (id: string, status: string) =>
    `Dispute ${id} is ${status}: it takes no more evidence, submission or acceptance.`,
  underReview: (id: string) => `Dispute ${id} was submitted and is under review: it can no longer change.`,
  overdue: (id: string, due: string) => `Dispute ${id}'s evidence was due by ${due}: nothing can be sent after it.`,
  empty: 'Save some evidence (a text field or a file) before submitting it.',
  tooManyFiles: (max: number) => `A dispute takes at most ${max} files in all.`,
} as const;

/** The sale as a dispute reads it. */
export interface Disputable {
  kind: string;
  method: string;
  status: string;
  amount: number;
  refunded: number;
  disputeId: string | null;
}

export type OpenDecision = { ok: true; amount: number } | RefusedDecision;

/** Whether a sale may be disputed for `requested` minor units (all that was not refunded when not given). */
export function decideOpen(sale: Disputable | undefined, requested: number | undefined): OpenDecision {
  if (!sale || sale.kind !== 'sale' || sale.method !== 'card' || sale.status !== 'completed')
    return refusedBecause(sale ? 'conflict' : 'not_found', DISPUTE_ERRORS.notCard);
  if (sale.disputeId) return refusedBecause('conflict', DISPUTE_ERRORS.already(sale.disputeId));
  const left = sale.amount - sale.refunded;
  if (left <= 0) return refusedBecause('conflict', DISPUTE_ERRORS.nothingLeft);
  if (requested !== undefined && (requested <= 0 || requested > left))
    return refusedBecause('invalid_request', DISPUTE_ERRORS.overRemaining(left));
  return { ok: true, amount: requested ?? left };
}

/** The instant evidence is due by: `EVIDENCE_DAYS` after `from`. */
export const evidenceDueBy = (from: Date) => new Date(from.getTime() + EVIDENCE_DAYS * DAY_MS);

export type StepDecision = { ok: true } | RefusedDecision;

/** Evidence may be saved, submitted or the dispute accepted while it waits for an answer, up to its due date. */
export function decideAnswer(dispute: DisputeState, now: Date): StepDecision {
  if (dispute.status === 'under_review') return refusedBecause('conflict', DISPUTE_ERRORS.underReview(dispute.id));
  if (dispute.status === 'won' || dispute.status === 'lost')
    return refusedBecause('conflict', DISPUTE_ERRORS.closed(dispute.id, dispute.status));
  if (now.getTime() > Date.parse(dispute.evidence_due_by))
    return refusedBecause('conflict', DISPUTE_ERRORS.overdue(dispute.id, dispute.evidence_due_by));
  return { ok: true };
}

/** A submission needs something to submit. */
export function decideSubmit(dispute: DisputeState, now: Date): StepDecision {
  const answer = decideAnswer(dispute, now);
  if (!answer.ok) return answer;
  const text = JSON.parse(dispute.evidence) as EvidenceText;
  if (dispute.file_count === 0 && !Object.values(text).some((value) => value && value.trim() !== ''))
    return refusedBecause('invalid_request', DISPUTE_ERRORS.empty);
  return { ok: true };
}

/**
 * What the sandbox makes of a dispute at `now`, when its clock moves: `undefined` for nothing yet.
 * - Under review: the explanation's `winning_evidence` or `losing_evidence` decides at once; otherwise won
 *   `REVIEW_DAYS` after its submission. An inquiry reviewed and not won becomes a chargeback (`escalate`).
 * - Waiting for an answer past its due date: lost; an inquiry becomes a chargeback with a new due date.
 */
export function sandboxOutcome(dispute: DisputeState, now: Date): 'won' | 'lost' | 'escalate' | undefined {
  // An inquiry has withdrawn nothing: not won, it becomes a chargeback.
  const lose = dispute.funds_withdrawn === 0 ? 'escalate' : 'lost';
  if (dispute.status === 'under_review') {
    const explanation = (JSON.parse(dispute.evidence) as EvidenceText).explanation ?? '';
    if (explanation.includes(OUTCOME_WORDS.lost)) return lose;
    if (explanation.includes(OUTCOME_WORDS.won)) return 'won';
    return now.getTime() >= Date.parse(dispute.submitted_at!) + REVIEW_DAYS * DAY_MS ? 'won' : undefined;
  }
  if (
    (dispute.status === 'needs_response' || dispute.status === 'inquiry') &&
    now.getTime() > Date.parse(dispute.evidence_due_by)
  )
    return lose;
  return undefined;
}

/**
 * The entries of a dispute's money, on its sale: `withdraw` takes the amount and the fee from the balance (a chargeback
 * opened, or an inquiry become one, or conceded); `reinstate` gives both back (won). Dated as a refund of the sale would be.
 */
export function disputeEntries(
  move: 'withdraw' | 'reinstate',
  sale: Pick<MoneyRecord, 'id' | 'merchant_id' | 'method' | 'completed_at'>,
  amount: number,
  now: Date,
  at: string,
): LedgerEntry[] {
  const on = reversalAvailableOn(saleAvailableOn(sale), now);
  const sign = move === 'withdraw' ? -1 : 1;
  const entry = (type: LedgerEntry['type'], value: number): LedgerEntry => ({
    merchant_id: sale.merchant_id,
    transaction_id: sale.id,
    type,
    amount: sign * value,
    available_on: on,
    created_at: at,
  });
  return move === 'withdraw'
    ? [entry('dispute', amount), entry('dispute_fee', DISPUTE_FEE)]
    : [entry('dispute_reversal', amount), entry('dispute_fee_refund', DISPUTE_FEE)];
}

/** Evidence files: PDF, PNG or JPEG, known by their first bytes, at most 5 MB each and 10 per dispute. */
const EXTENSIONS: Record<EvidenceFileType, readonly string[]> = {
  'application/pdf': ['pdf'],
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
};

const FILE_PROBLEMS = {
  base64: (name: string) => `${name}: content_base64 must be the file in base64.`,
  empty: (name: string) => `${name} is empty.`,
  tooLarge: (name: string) => `${name} is over ${MAX_EVIDENCE_FILE_BYTES / 1024 / 1024} MB.`,
  type: (name: string) => `${name} is not a PDF, PNG or JPEG file (its bytes say so, whatever its name says).`,
  lies: (name: string, type: string) => `${name}'s name does not match its bytes, which are ${type}.`,
  filename:
    'filename must be 1 to 100 characters, a name and a .pdf, .png, .jpg or .jpeg extension, without slashes, backslashes, control characters or a leading dot.',
} as const;

export type FileCheck = { ok: true; bytes: Buffer; type: EvidenceFileType } | { ok: false; message: string };

/** One uploaded file checked: its name, its base64, its size, its bytes against its name's extension. */
export function checkEvidenceFile(filename: string, base64: string): FileCheck {
  if (!isSafeFilename(filename)) return { ok: false, message: FILE_PROBLEMS.filename };
  if (base64.length > Math.ceil(MAX_EVIDENCE_FILE_BYTES / 3) * 4)
    return { ok: false, message: FILE_PROBLEMS.tooLarge(filename) };
  // One character class over the whole text: a grouped repetition backtracks through megabytes of it.
  if (base64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(base64))
    return { ok: false, message: FILE_PROBLEMS.base64(filename) };
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) return { ok: false, message: FILE_PROBLEMS.empty(filename) };
  if (bytes.length > MAX_EVIDENCE_FILE_BYTES) return { ok: false, message: FILE_PROBLEMS.tooLarge(filename) };
  const type = sniffEvidenceType(bytes);
  if (!type) return { ok: false, message: FILE_PROBLEMS.type(filename) };
  const extension = filename.slice(filename.lastIndexOf('.') + 1).toLowerCase();
  if (!EXTENSIONS[type].includes(extension)) return { ok: false, message: FILE_PROBLEMS.lies(filename, type) };
  return { ok: true, bytes, type };
}

/** What the sandbox's dispute cards (domain/test-cards.ts) open on the sale they pay (docs/disputes.md). */
export const DISPUTE_CARDS: Partial<Record<string, { reason: DisputeReason; inquiry: boolean }>> = {
  dispute_fraudulent: { reason: 'fraudulent', inquiry: false },
  dispute_product_not_received: { reason: 'product_not_received', inquiry: false },
  dispute_inquiry: { reason: 'general', inquiry: true },
};
