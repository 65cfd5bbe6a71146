import type { Store } from '../store/store.ts';
import type { Dispute, DisputeFile, DisputeFilter } from '../store/disputes.ts';
import type { Transaction } from '../store/transactions.ts';
import type { Change, Row } from '../store/changes.ts';
import { eventRow } from '../store/events.ts';
import { entryRows } from '../store/ledger.ts';
import { forbidden, invalid, notFound, Refusal } from '../domain/refusals.ts';
import { formatAmount, parseAmount } from '../domain/money.ts';
import { isoInstant } from '../domain/instants.ts';
import { isIsoDate } from '../domain/calendar.ts';
import {
  checkEvidenceFile,
  decideAnswer,
  decideOpen,
  decideSubmit,
  DISPUTE_ERRORS,
  DISPUTE_FEE,
  disputeEntries,
  EVIDENCE_TEXT_FIELDS,
  evidenceDueBy,
  sandboxOutcome,
  type DisputeReason,
  type DisputeStatus,
  type EvidenceText,
} from '../domain/disputes.ts';
import { MAX_EVIDENCE_FILES } from '../../rules/evidence-files.ts';
import { newId } from '../platform/secrets.ts';
import { cursorFields, readCursor } from './cursors.ts';
import { disputeEvent } from './events.ts';
import type { Decided } from './guarded.ts';

/** The merchant a dispute call acts for: its id and its client's. */
interface Owner {
  id: string;
  client_id: string;
}

interface HistoryStep {
  status: DisputeStatus;
  at: string;
}

/** A dispute as listed: what it is and where it stands. */
function disputeSummary(dispute: Dispute) {
  return {
    dispute_id: dispute.id,
    merchant_id: dispute.merchant_id,
    transaction_id: dispute.transaction_id,
    amount: formatAmount(dispute.amount),
    fee: formatAmount(DISPUTE_FEE),
    currency: 'USD' as const,
    reason: dispute.reason,
    status: dispute.status,
    funds_withdrawn: dispute.funds_withdrawn === 1,
    evidence_due_by: dispute.evidence_due_by,
    file_count: dispute.file_count,
    submitted_at: dispute.submitted_at,
    closed_at: dispute.closed_at,
    created_date: dispute.created_at,
    updated_date: dispute.updated_at,
  };
}

const fileFields = (file: DisputeFile) => ({
  file_id: file.id,
  filename: file.filename,
  content_type: file.content_type,
  size: file.size,
  created_date: file.created_at,
});

/** GET /disputes/{id}/files/{file_id}: the file's bytes in base64, as they were sent. */
const fileView = (file: DisputeFile & { bytes: Buffer }) => ({
  ...fileFields(file),
  content_base64: file.bytes.toString('base64'),
});

/** A dispute's details: its evidence (text and files) and its history. */
export function disputeView(dispute: Dispute, files: DisputeFile[]) {
  return {
    ...disputeSummary(dispute),
    evidence: JSON.parse(dispute.evidence) as EvidenceText,
    files: files.map(fileFields),
    history: JSON.parse(dispute.history) as HistoryStep[],
  };
}

/**
 * The merchant's dispute `id`. One of the client's other merchants' is refused with 403 (the partner sent the wrong
 * merchant's key); another client's is as unknown as a made-up one (404), so ids cannot be probed across clients.
 */
async function ownDispute(store: Store, merchant: Owner, id: string): Promise<Dispute> {
  const dispute = await store.disputes.find(merchant.id, id);
  if (dispute) return dispute;
  const owner = await store.disputes.owner(id);
  if (owner && owner.client_id === merchant.client_id)
    throw forbidden(`Dispute ${id} belongs to another of your merchants: send that merchant's merchant_key.`);
  throw notFound(`No dispute ${id} for this merchant.`);
}

export async function disputeDetails(store: Store, merchant: Owner, id: string) {
  const dispute = await ownDispute(store, merchant, id);
  return disputeView(dispute, await store.disputes.files(merchant.id, id));
}

/** One evidence file of the merchant's dispute, as uploaded. */
export async function evidenceFile(store: Store, merchant: Owner, disputeId: string, fileId: string) {
  await ownDispute(store, merchant, disputeId);
  const file = await store.disputes.file(merchant.id, disputeId, fileId);
  if (!file) throw notFound(`No file ${fileId} in dispute ${disputeId}.`);
  return fileView(file);
}

/** A dispute as a step's answer shows it: with the files saved before, and those the step adds. */
export async function disputeAfter(store: Store, merchantId: string, dispute: Dispute, added: DisputeFile[] = []) {
  return disputeView(dispute, [...(await store.disputes.files(merchantId, dispute.id)), ...added]);
}

/** GET /disputes: newest first, by cursor, filtered by status or reason. */
export async function listDisputes(
  store: Store,
  merchantId: string,
  filter: DisputeFilter,
  limit: number,
  cursor: string | undefined,
) {
  const page = await store.disputes.page(
    merchantId,
    filter,
    limit,
    cursor === undefined ? { offset: 0 } : { after: readCursor(cursor) },
  );
  return { items: page.items.map(disputeSummary), ...cursorFields(page) };
}

const historyWith = (dispute: Pick<Dispute, 'history'>, status: DisputeStatus, at: string) =>
  JSON.stringify([...(JSON.parse(dispute.history) as HistoryStep[]), { status, at }]);

/** A change of a dispute as read: it applies only while the dispute still reads so (its status and last change). */
function disputeChange(
  dispute: Dispute,
  set: Partial<Dispute>,
  rows: Row[],
  events: [string, Dispute][],
  now: Date,
  extra: { atMost?: Record<string, number>; add?: Record<string, number> } = {},
): Change {
  return {
    guards: [
      {
        table: 'disputes',
        where: { id: dispute.id, status: dispute.status, updated_at: dispute.updated_at },
        set: { ...set, updated_at: isoInstant(now) } as Record<string, string | number | null>,
        ...extra,
      },
    ],
    rows,
    events: events.map(([type, state]) => eventRow(dispute.client_id, type, disputeEvent(state), now)),
  };
}

/** The sale's entries of a dispute's money (domain/disputes.ts). */
const moneyRows = (move: 'withdraw' | 'reinstate', sale: Transaction, amount: number, now: Date) =>
  entryRows(disputeEntries(move, sale, amount, now, isoInstant(now)));

export interface OpenRequest {
  reason: DisputeReason;
  amount?: string | undefined;
  inquiry?: boolean | undefined;
}

/**
 * Opens a dispute of a card sale (the sandbox's POST /sandbox/disputes and its dispute cards): its amount and the fee
 * withdrawn with it, unless it is an inquiry. The sale's guard sets its `dispute_id`, so a refund decided on the sale
 * before it cannot land after it.
 */
export async function openDispute(
  store: Store,
  merchant: Owner,
  transactionId: string,
  request: OpenRequest,
  now: Date,
): Promise<Decided<Dispute>> {
  const requested = request.amount === undefined ? undefined : parseAmount(request.amount);
  if (requested === null) throw invalid('amount must be decimal text with at most two decimals, e.g. "5.00".');
  const sale = await store.transactions.findForChange(merchant.id, transactionId);
  const decision = decideOpen(
    sale && {
      kind: sale.kind,
      method: sale.method,
      status: sale.status,
      amount: sale.amount,
      refunded: sale.refunded_amount,
      disputeId: sale.dispute_id ?? null,
    },
    requested,
  );
  if (!decision.ok) throw new Refusal(decision.reason, decision.message);
  const { dispute, rows, events } = disputeOfSale(sale!, decision.amount, request, now);
  return {
    change: {
      guards: [
        {
          table: 'transactions',
          where: { id: sale!.id, merchant_id: sale!.merchant_id, status: 'completed', dispute_id: null },
          atMost: { refunded_amount: sale!.amount - decision.amount },
          set: { dispute_id: dispute.id },
        },
      ],
      rows,
      events,
    },
    result: dispute,
  };
}

/** A new dispute of `sale`, its rows (the dispute, the money withdrawn unless an inquiry) and its events. */
export function disputeOfSale(
  sale: Transaction,
  amount: number,
  request: OpenRequest,
  now: Date,
): { dispute: Dispute; rows: Row[]; events: Change['events'] } {
  const at = isoInstant(now);
  const status: DisputeStatus = request.inquiry ? 'inquiry' : 'needs_response';
  const dispute: Dispute = {
    id: newId('dp_'),
    client_id: sale.client_id,
    merchant_id: sale.merchant_id,
    transaction_id: sale.id,
    amount,
    reason: request.reason,
    status,
    funds_withdrawn: request.inquiry ? 0 : 1,
    evidence_due_by: isoInstant(evidenceDueBy(now)),
    evidence: '{}',
    file_count: 0,
    history: JSON.stringify([{ status, at }]),
    submitted_at: null,
    closed_at: null,
    created_at: at,
    updated_at: at,
  };
  const withdrawn = !request.inquiry;
  return {
    dispute,
    rows: [{ table: 'disputes', row: dispute }, ...(withdrawn ? moneyRows('withdraw', sale, amount, now) : [])],
    events: [
      eventRow(sale.client_id, 'dispute.created', disputeEvent(dispute), now),
      ...(withdrawn ? [eventRow(sale.client_id, 'dispute.funds_withdrawn', disputeEvent(dispute), now)] : []),
    ],
  };
}

export interface EvidenceUpload extends EvidenceText {
  files?: { filename: string; content_base64: string }[] | undefined;
}

/**
 * POST /disputes/{id}/evidence: the text fields given replace those saved (an empty text clears one), the files are
 * added, up to `MAX_EVIDENCE_FILES` in all (the guard holds the count, so two saves at once cannot pass it). Every file
 * is checked by its bytes before anything is written: one bad file and nothing is stored.
 */
export async function saveEvidence(
  store: Store,
  merchant: Owner,
  id: string,
  upload: EvidenceUpload,
  now: Date,
): Promise<Decided<{ dispute: Dispute; added: DisputeFile[] }>> {
  const checked = (upload.files ?? []).map((file) => {
    const check = checkEvidenceFile(file.filename, file.content_base64);
    if (!check.ok) throw invalid(check.message);
    return { ...check, filename: file.filename };
  });
  if (upload.service_date && !isIsoDate(upload.service_date))
    throw invalid('service_date must be a date as YYYY-MM-DD, e.g. "2026-03-13".');
  const dispute = await ownDispute(store, merchant, id);
  const decision = decideAnswer(dispute, now);
  if (!decision.ok) throw new Refusal(decision.reason, decision.message);
  if (dispute.file_count + checked.length > MAX_EVIDENCE_FILES)
    throw invalid(DISPUTE_ERRORS.tooManyFiles(MAX_EVIDENCE_FILES));
  const text: Record<string, string> = { ...(JSON.parse(dispute.evidence) as Record<string, string>) };
  for (const field of EVIDENCE_TEXT_FIELDS) {
    const value = upload[field];
    if (value === undefined) continue;
    if (value.trim() === '') delete text[field];
    else text[field] = value;
  }
  const at = isoInstant(now);
  const added = checked.map((file) => ({
    id: newId('df_'),
    dispute_id: dispute.id,
    merchant_id: dispute.merchant_id,
    filename: file.filename,
    content_type: file.type,
    size: file.bytes.length,
    created_at: at,
    bytes: file.bytes,
  }));
  const files: Row[] = added.map((row) => ({ table: 'dispute_files', row }));
  const evidence = JSON.stringify(text);
  const saved = { ...dispute, evidence, file_count: dispute.file_count + files.length, updated_at: at };
  return {
    change: disputeChange(dispute, { evidence }, files, [], now, {
      atMost: { file_count: MAX_EVIDENCE_FILES - files.length },
      add: { file_count: files.length },
    }),
    result: { dispute: saved, added: added.map(({ bytes: _bytes, ...file }) => file) },
  };
}

/** POST /disputes/{id}/submit: the evidence saved goes to the card's bank; the dispute is under review. */
export async function submitDispute(store: Store, merchant: Owner, id: string, now: Date): Promise<Decided<Dispute>> {
  const dispute = await ownDispute(store, merchant, id);
  const decision = decideSubmit(dispute, now);
  if (!decision.ok) throw new Refusal(decision.reason, decision.message);
  const at = isoInstant(now);
  const set = { status: 'under_review' as const, submitted_at: at, history: historyWith(dispute, 'under_review', at) };
  const next = { ...dispute, ...set, updated_at: at };
  return { change: disputeChange(dispute, set, [], [['dispute.updated', next]], now), result: next };
}

/** POST /disputes/{id}/accept: the merchant concedes; lost, and an inquiry's money is withdrawn now. */
export async function acceptDispute(store: Store, merchant: Owner, id: string, now: Date): Promise<Decided<Dispute>> {
  const dispute = await ownDispute(store, merchant, id);
  const decision = decideAnswer(dispute, now);
  if (!decision.ok) throw new Refusal(decision.reason, decision.message);
  return { change: await closing(store, dispute, 'lost', now), result: closed(dispute, 'lost', now) };
}

const closed = (dispute: Dispute, status: 'won' | 'lost', now: Date): Dispute => {
  const at = isoInstant(now);
  return {
    ...dispute,
    status,
    closed_at: at,
    updated_at: at,
    // Lost keeps the money withdrawn (an inquiry's is taken now); won gives it back.
    funds_withdrawn: status === 'lost' ? 1 : 0,
    history: historyWith(dispute, status, at),
  };
};

/** Won: what was withdrawn comes back. Lost: it stays out, and an inquiry's is taken now. */
function moneyMove(dispute: Dispute, status: 'won' | 'lost'): 'withdraw' | 'reinstate' | undefined {
  if (status === 'won') return dispute.funds_withdrawn ? 'reinstate' : undefined;
  return dispute.funds_withdrawn ? undefined : 'withdraw';
}

/** The change that closes `dispute` as `status`: won gives its money back, lost keeps it (and takes an inquiry's). */
async function closing(store: Store, dispute: Dispute, status: 'won' | 'lost', now: Date): Promise<Change> {
  const next = closed(dispute, status, now);
  const sale = (await store.transactions.findForChange(dispute.merchant_id, dispute.transaction_id))!;
  const move = moneyMove(dispute, status);
  const { id: _id, client_id: _c, merchant_id: _m, transaction_id: _t, created_at: _a, updated_at: _u, ...set } = next;
  return disputeChange(
    dispute,
    set,
    move ? moneyRows(move, sale, dispute.amount, now) : [],
    [
      ['dispute.closed', next],
      ...(move
        ? [[move === 'withdraw' ? 'dispute.funds_withdrawn' : 'dispute.funds_reinstated', next] as [string, Dispute]]
        : []),
    ],
    now,
  );
}

/** An inquiry not won becomes a chargeback: its money withdrawn now, a new due date to answer by. */
async function escalation(store: Store, dispute: Dispute, now: Date): Promise<Change> {
  const at = isoInstant(now);
  const sale = (await store.transactions.findForChange(dispute.merchant_id, dispute.transaction_id))!;
  const set = {
    status: 'needs_response' as const,
    funds_withdrawn: 1,
    submitted_at: null,
    evidence_due_by: isoInstant(evidenceDueBy(now)),
    history: historyWith(dispute, 'needs_response', at),
  };
  const next = { ...dispute, ...set, updated_at: at };
  return disputeChange(
    dispute,
    set,
    moneyRows('withdraw', sale, dispute.amount, now),
    [
      ['dispute.updated', next],
      ['dispute.funds_withdrawn', next],
    ],
    now,
  );
}

/**
 * The sandbox decides the open disputes at `now` (each move of its clock, in that move's unit, and each minute's run of
 * the payout runner): by the explanation's words, by the review's time, or lost past the due date (domain/disputes.ts,
 * `sandboxOutcome`). A dispute changed meanwhile by its merchant is left for the next run: its guard, written first,
 * no longer holds, and nothing of it is written.
 */
export async function decideOpenDisputes(store: Store, now: Date): Promise<number> {
  let decided = 0;
  for (const dispute of await store.disputes.open()) {
    const outcome = sandboxOutcome(dispute, now);
    if (!outcome) continue;
    const change =
      outcome === 'escalate' ? await escalation(store, dispute, now) : await closing(store, dispute, outcome, now);
    if (await store.write(change)) decided++;
  }
  return decided;
}
