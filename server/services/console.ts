import { movesOf } from '../domain/preauth.ts';
import type { Store } from '../store/store.ts';
import type { MerchantAccount } from '../store/merchants.ts';
import type { Transaction } from '../store/transactions.ts';
import { formatAmount, parseAmount, positiveAmount } from '../domain/money.ts';
import { Refusal, invalid, notFound } from '../domain/refusals.ts';
import { decideUndo, merchantWords, refundableAmount, voidableUntil, type TimelineStep } from '../domain/console.ts';
import { AUTO_SETTLE_MS, isSettled, type Refundable } from '../domain/refunds.ts';
import { refundSale, voidSale, type EventExtras } from './refunds.ts';
import { capture, changeAuthorizedAmount, releaseAuthorization } from './preauthorizations.ts';
import { requireFeature, type WidgetSession } from './widgets.ts';
import { consoleCursor, consolePageStart, readConsoleQuery, type ConsoleQuery } from './console-filters.ts';
import { moneyOf } from './payout-views.ts';
import type { Decided } from './guarded.ts';

const asRefundable = (t: Transaction): Refundable => ({
  kind: t.kind,
  status: t.status,
  amount: t.amount,
  refunded: t.refunded_amount,
  completedAt: t.completed_at,
  settledAt: t.settled_at,
  disputeId: t.dispute_id,
});

/** A row of the console: the table's fields and what may still be done with it. */
function consoleItem(t: Transaction, now: Date) {
  return {
    transaction_id: t.id,
    created_date: t.created_at,
    amount: formatAmount(t.amount),
    net_amount: formatAmount(t.net_amount),
    card_brand: t.card_brand,
    last_four: t.last_four,
    status: t.status,
    type: t.kind as 'sale' | 'refund' | 'void' | 'ach_return' | 'preauth',
    order_id: t.order_id,
    refunded_amount: formatAmount(t.refunded_amount),
    refundable_amount: formatAmount(refundableAmount(asRefundable(t))),
    voidable_until: voidableUntil(asRefundable(t), now),
    capturable: t.kind === 'preauth' && t.status === 'authorized',
    dispute_id: t.dispute_id ?? null,
  };
}

/** GET /widgets/transactions: one page of the merchant's transactions as the filter, search and sort ask. */
export async function listConsole(
  store: Store,
  merchantId: string,
  query: ConsoleQuery & { page: number; perPage: number; cursor?: string | undefined },
  now: Date,
) {
  const { filter, order } = readConsoleQuery(query);
  const start = consolePageStart(query.cursor, query.page, query.perPage, order);
  const listed = await store.longRead('listing', (reader) =>
    reader.consoleListing.page(merchantId, filter, order, query.perPage, start),
  );
  return {
    items: listed.items.map((t) => consoleItem(t, now)),
    page: query.page,
    perPage: query.perPage,
    totalCount: listed.total,
    ...consoleCursor(listed, order),
    narrowed: listed.narrowed,
  };
}

/** What happened to a transaction, oldest first: from its own dates, its hold or capture, its reversals and receipts. */
function timelineOf(
  t: Transaction,
  reversals: Transaction[],
  related: Transaction | undefined,
  receiptTimes: string[],
  now: Date,
): TimelineStep[] {
  const hold = t.kind === 'preauth' ? t : t.kind === 'sale' && related?.kind === 'preauth' ? related : undefined;
  // A hold (or the sale captured from one) tells its history: the amount first authorized, each raise or cut as the
  // amount authorized after it, the capture and what it released (issue 44: not "Created $60" for an $80 hold).
  const moves = hold ? movesOf(hold) : [];
  const steps: TimelineStep[] = hold
    ? [{ at: hold.created_at, what: 'created', amount: formatAmount(moves[0]!.amount) }]
    : [{ at: t.created_at, what: 'created', amount: formatAmount(t.amount) }];
  if (hold) {
    for (const m of moves) {
      const what = m.move === 'captured' ? 'captured' : m.move === 'released' ? 'released' : 'authorized';
      steps.push({ at: m.at, what, amount: formatAmount(m.amount) });
    }
    const capture = t.kind === 'preauth' ? related : t;
    if (capture && !moves.some((m) => m.move === 'captured'))
      steps.push({
        at: capture.completed_at ?? capture.created_at,
        what: 'captured',
        amount: formatAmount(capture.amount),
      });
  } else if (t.kind === 'sale' && t.method === 'ach') {
    steps.push({ at: t.created_at, what: 'ach_pending' });
    if (t.completed_at && t.status !== 'declined') steps.push({ at: t.completed_at, what: 'ach_approved' });
  } else if (t.kind === 'sale') {
    steps.push({ at: t.created_at, what: 'authorized', amount: formatAmount(t.amount) });
    steps.push({ at: t.completed_at ?? t.created_at, what: 'captured', amount: formatAmount(t.amount) });
  }
  for (const r of reversals) {
    const what: TimelineStep['what'] = r.kind === 'void' ? 'voided' : r.kind === 'refund' ? 'refunded' : 'ach_declined';
    steps.push({ at: r.created_at, what, amount: formatAmount(r.amount) });
  }
  if (
    t.kind === 'sale' &&
    t.status === 'completed' &&
    t.completed_at &&
    isSettled({ completedAt: t.completed_at, settledAt: t.settled_at }, now)
  ) {
    steps.push({
      at: t.settled_at ?? new Date(Date.parse(t.completed_at) + AUTO_SETTLE_MS).toISOString(),
      what: 'settled',
    });
  }
  for (const at of receiptTimes) steps.push({ at, what: 'receipt_sent' });
  return steps.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** GET /widgets/transactions/{id}: the row, its timeline and its refunds; another merchant's id is not found. */
export async function consoleDetails(store: Store, merchantId: string, transactionId: string, now: Date) {
  const t = await store.transactions.find(merchantId, transactionId);
  if (!t) throw notFound(`No transaction ${transactionId} for this merchant.`);
  const reversals = t.kind === 'sale' ? await store.consoleListing.reversalsOf(merchantId, t.id) : [];
  const related =
    t.kind === 'preauth'
      ? (await store.transactions.capturesOf(merchantId, [t.id])).get(t.id)
      : t.kind === 'sale' && t.parent_id
        ? await store.transactions.find(merchantId, t.parent_id)
        : undefined;
  const receiptTimes = await store.receipts.sentFor(merchantId, [t.id, ...reversals.map((r) => r.id)]);
  return {
    ...consoleItem(t, now),
    timeline: timelineOf(t, reversals, related, receiptTimes, now),
    refunds: reversals
      .filter((r) => r.kind === 'refund')
      .map((r) => ({
        transaction_id: r.id,
        amount: formatAmount(r.amount),
        created_date: r.created_at,
        reason: r.refund_reason ?? null,
        reason_note: r.refund_note ?? null,
      })),
    money: await moneyOf(
      store,
      merchantId,
      t.id,
      reversals.map((r) => r.id),
    ),
  };
}

/** An action through a widget session: the session's merchant, and its id in every event the action writes. */
export interface ConsoleActor {
  session: WidgetSession;
  merchant: MerchantAccount;
  minimumPayment?: number | undefined;
}

const extrasOf = (actor: ConsoleActor): EventExtras =>
  actor.session.sessionId ? { widget_session_id: actor.session.sessionId } : {};

function amountText(text: string | number | undefined): string | undefined {
  if (text === undefined || text === '') return undefined;
  const minor = positiveAmount('amount', text, '5.00');
  if (typeof minor !== 'number') throw invalid(minor.problem);
  return formatAmount(minor);
}

/** The sale an action names, or 404: an action never reaches another merchant's row. */
/**
 * An action's refusal as the console says it (`merchantWords`): read again only when refused, for what is left of the
 * payment.
 */
async function inMerchantWords<T>(store: Store, actor: ConsoleActor, id: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    const t = await store.transactions.find(actor.merchant.id, id);
    const words = merchantWords(error.message, t && asRefundable(t));
    if (words === error.message) throw error;
    throw new Refusal(error.reason, words, error.details, error.retryAfterSeconds);
  }
}

async function ownTransaction(store: Store, actor: ConsoleActor, id: string): Promise<Transaction> {
  const t = await store.transactions.find(actor.merchant.id, id);
  if (!t) throw notFound(`No transaction ${id} for this merchant.`);
  return t;
}

/** Refund: the amount given, or everything still refundable. Its change, and the refund's (or the void's) record id. */
export async function consoleRefund(
  store: Store,
  actor: ConsoleActor,
  id: string,
  amount: string | number | undefined,
  now: Date,
  reason?: { reason?: string | undefined; reason_note?: string | undefined },
): Promise<Decided<string>> {
  requireFeature(actor.session, 'refunds');
  let text = amountText(amount);
  if (text === undefined) {
    const sale = await ownTransaction(store, actor, id);
    const rest = refundableAmount(asRefundable(sale));
    // Nothing left: the refund's own rules say why (already refunded, not a completed sale).
    text = formatAmount(rest > 0 ? rest : sale.amount);
  }
  const refund = () => refundSale(store, actor.merchant, id, text, now, extrasOf(actor), reason);
  const { change, result } = await inMerchantWords(store, actor, id, refund);
  return { change, result: result.record.transaction_id };
}

/** Void: its change, and the void's record id. */
export async function consoleVoid(store: Store, actor: ConsoleActor, id: string, now: Date): Promise<Decided<string>> {
  requireFeature(actor.session, 'voids');
  const voided = () => voidSale(store, actor.merchant, id, now, extrasOf(actor));
  const { change, result } = await inMerchantWords(store, actor, id, voided);
  return { change, result: result.record.transaction_id };
}

/** Capture a hold: of the amount held, or of `amount`, to which the hold is changed in the same change. */
export async function consoleCapture(
  store: Store,
  actor: ConsoleActor,
  id: string,
  amount: string | number | undefined,
  now: Date,
) {
  requireFeature(actor.session, 'captures');
  const text = amountText(amount);
  const at = text === undefined ? undefined : parseAmount(text)!;
  return inMerchantWords(store, actor, id, () =>
    capture(store, actor.merchant, id, undefined, now, extrasOf(actor), at, actor.minimumPayment),
  );
}

/** Change a hold's amount (raise or lower it) without capturing. */
export async function consoleAdjust(store: Store, actor: ConsoleActor, id: string, amount: string | number, now: Date) {
  requireFeature(actor.session, 'captures');
  const text = amountText(amount);
  if (text === undefined) throw invalid('amount is required: the amount the hold should be, e.g. "40.00".');
  const hold = await ownTransaction(store, actor, id);
  return inMerchantWords(store, actor, id, () =>
    changeAuthorizedAmount(
      store,
      actor.merchant,
      id,
      formatAmount(hold.amount),
      text,
      now,
      extrasOf(actor),
      actor.minimumPayment,
    ),
  );
}

export async function consoleRelease(store: Store, actor: ConsoleActor, id: string, now: Date) {
  requireFeature(actor.session, 'captures');
  return inMerchantWords(store, actor, id, () => releaseAuthorization(store, actor.merchant, id, now));
}

/** Undo sale: a void while the rules allow one, else a full refund of the rest; each needs its own feature. */
export async function consoleUndo(
  store: Store,
  actor: ConsoleActor,
  id: string,
  now: Date,
): Promise<Decided<{ undoneAs: 'void' | 'refund'; recordId: string }>> {
  const sale = await ownTransaction(store, actor, id);
  const decision = decideUndo(asRefundable(sale), now);
  if (!decision.ok) throw new Refusal(decision.reason, merchantWords(decision.message, asRefundable(sale)));
  if (decision.as === 'void') {
    requireFeature(actor.session, 'voids');
    const { change, result } = await voidSale(store, actor.merchant, id, now, extrasOf(actor));
    return { change, result: { undoneAs: 'void', recordId: result.record.transaction_id } };
  }
  requireFeature(actor.session, 'refunds');
  const {
    change,
    result: { record },
  } = await refundSale(store, actor.merchant, id, formatAmount(decision.amount), now, extrasOf(actor));
  return { change, result: { undoneAs: record.type === 'Void' ? 'void' : 'refund', recordId: record.transaction_id } };
}
