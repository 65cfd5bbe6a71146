import { historyWith } from '../domain/preauth.ts';
import type { Store } from '../store/store.ts';
import type { Reason } from '../domain/refusals.ts';
import { LINK_PROBLEMS, payLinkStatus } from '../domain/pay-links.ts';
import { PAYMENT_PROBLEMS } from '../domain/payment-problems.ts';
import type { PaymentRequest } from '../store/payment-requests.ts';
import type { NewTransaction } from '../store/transactions.ts';
import { chargeFor } from '../domain/payment-amounts.ts';
import { checkCard, DECLINE_MESSAGES, type CardOutcome } from '../domain/test-cards.ts';
import { DISPUTE_CARDS } from '../domain/disputes.ts';
import { disputeOfSale } from './disputes.ts';
import { isValidAccountNumber, isValidRoutingNumber } from '../domain/routing-number.ts';
import { digest, newId, newToken } from '../platform/secrets.ts';
import { payLinkKey } from './pay-link-tokens.ts';
import { paymentSuccessEvent, preauthEvent } from './events.ts';
import { isoInstant } from '../domain/instants.ts';
import { saleEntries } from '../domain/ledger.ts';
import { entryRows } from '../store/ledger.ts';
import { eventRow } from '../store/events.ts';
import type { Change, Guard, Row } from '../store/changes.ts';

interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

/** `receiptEmail`: where the shopper asked for a receipt on the hosted page, checked there (issue 44). */
export type PaymentDetails = { receiptEmail?: string | undefined } & (
  | { method: 'card'; card: CardDetails; threeDs?: 'pass' | 'fail' | undefined }
  | { method: 'ach'; routingNumber: string; accountNumber: string; name?: string | undefined }
);

export type PayOutcome =
  | { status: 'approved'; transactionId: string; kind: 'sale' | 'preauth'; request: PaymentRequest }
  | { status: 'pending'; transactionId: string; request: PaymentRequest }
  | { status: 'declined'; message: string; request: PaymentRequest }
  /** The hosted page shows the 3-D Secure challenge, then calls `completeChallenge` with this token. */
  | { status: 'challenge'; attemptToken: string; request: PaymentRequest }
  | {
      status: 'refused';
      message: string;
      reason: Reason;
      request?: PaymentRequest;
      linkProblem?: keyof typeof LINK_PROBLEMS;
    };

const ATTEMPT_TTL_MS = 15 * 60 * 1000;

function linkRefusal(problem: keyof typeof LINK_PROBLEMS, request?: PaymentRequest): PayOutcome {
  return {
    status: 'refused',
    message: LINK_PROBLEMS[problem],
    reason: problem === 'unknown' ? 'not_found' : 'conflict',
    request,
    linkProblem: problem,
  };
}

export type OpenLink =
  { ok: true; request: PaymentRequest } | { ok: false; problem: keyof typeof LINK_PROBLEMS; request?: PaymentRequest };

/** The request behind a pay link token, if it can still be paid. */
export async function openPayLink(store: Store, token: string, now: Date): Promise<OpenLink> {
  const key = payLinkKey(token);
  const request = key === undefined ? undefined : await store.paymentRequests.findByTokenHash(key);
  if (!request) return { ok: false, problem: 'unknown' };
  const status = payLinkStatus(request, now);
  return status === 'open' ? { ok: true, request } : { ok: false, problem: status, request };
}

function randomCode(): string {
  return newToken('')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 6)
    .toUpperCase();
}

/** What a payment decided: its outcome, and the change to write before it is answered (none for a refusal or a decline). */
export interface Paid {
  outcome: PayOutcome;
  change?: Change;
}

/**
 * Pays a pay link (or QR link) exactly as the hosted page does; `POST /sandbox/pay` takes the same path.
 * `canChallenge` says whether the caller can show a 3-D Secure challenge (the page can; the API answers
 * with `threeDs` instead). A change whose guard no longer holds (the link was paid meanwhile) is decided again:
 * the link is then paid.
 */
export async function payLink(
  store: Store,
  token: string,
  details: PaymentDetails,
  now: Date,
  canChallenge: boolean,
): Promise<Paid> {
  const link = await openPayLink(store, token, now);
  if (!link.ok) return { outcome: linkRefusal(link.problem, link.request) };
  const { request } = link;

  const refused = (message: string): Paid => ({
    outcome: { status: 'refused', message, reason: 'invalid_request', request },
  });
  if (details.method === 'ach') {
    if (!request.allow_ach) return refused(PAYMENT_PROBLEMS.noAch);
    if (!isValidRoutingNumber(details.routingNumber)) return refused(PAYMENT_PROBLEMS.routing);
    if (!isValidAccountNumber(details.accountNumber)) return refused(PAYMENT_PROBLEMS.account);
    return settle(
      request,
      { method: 'ach', brand: 'ACH', lastFour: details.accountNumber.slice(-4), outcome: 'approve' },
      now,
      details.receiptEmail,
    );
  }

  if (!request.allow_card) return refused(PAYMENT_PROBLEMS.noCard);
  const checked = checkCard(details.card, { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1 });
  if (!checked.ok) return refused(checked.message);
  const card = {
    method: 'card' as const,
    brand: checked.brand,
    lastFour: checked.lastFour,
    outcome: checked.outcome,
    expMonth: details.card.expMonth,
    expYear: details.card.expYear,
  };
  if (checked.outcome === 'card_declined' || checked.outcome === 'insufficient_funds') {
    return { outcome: { status: 'declined', message: DECLINE_MESSAGES[checked.outcome], request } };
  }
  const needsChallenge = checked.outcome === 'challenge' || request.require_3ds === 1;
  if (needsChallenge && !details.threeDs) {
    if (!canChallenge) return refused(PAYMENT_PROBLEMS.needsChallenge);
    const attemptToken = newToken('tds_');
    const attempt = {
      token_hash: digest(attemptToken),
      request_id: request.id,
      card_brand: card.brand,
      last_four: card.lastFour,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      outcome: card.outcome,
      expires_at: isoInstant(now, ATTEMPT_TTL_MS),
      used_at: null,
    };
    return {
      outcome: { status: 'challenge', attemptToken, request },
      change: { guards: [], rows: [{ table: 'payment_attempts', row: attempt }], events: [] },
    };
  }
  if (needsChallenge && details.threeDs === 'fail')
    return { outcome: { status: 'declined', message: DECLINE_MESSAGES.three_ds_failed, request } };
  return settle(request, card, now, details.receiptEmail);
}

/** The hosted page's 3-D Secure step: the challenge passed or failed for a card checked before; the attempt is used once. */
export async function completeChallenge(
  store: Store,
  token: string,
  attemptToken: string,
  passed: boolean,
  now: Date,
  receiptEmail?: string,
): Promise<Paid> {
  const link = await openPayLink(store, token, now);
  if (!link.ok) return { outcome: linkRefusal(link.problem, link.request) };
  const { request } = link;
  const attempt = await store.paymentRequests.openAttempt(digest(attemptToken), request.id, isoInstant(now));
  if (!attempt)
    return { outcome: { status: 'refused', message: PAYMENT_PROBLEMS.challengeUsed, reason: 'conflict', request } };
  const used: Guard = {
    table: 'payment_attempts',
    where: { token_hash: attempt.token_hash, used_at: null },
    set: { used_at: isoInstant(now) },
  };
  if (!passed)
    return {
      outcome: { status: 'declined', message: DECLINE_MESSAGES.three_ds_failed, request },
      change: { guards: [used], rows: [], events: [] },
    };
  const paid = settle(
    request,
    {
      method: 'card',
      brand: attempt.card_brand,
      lastFour: attempt.last_four,
      outcome: attempt.outcome,
      expMonth: attempt.exp_month,
      expYear: attempt.exp_year,
    },
    now,
    receiptEmail,
  );
  return { ...paid, change: { ...paid.change!, guards: [used, ...paid.change!.guards] } };
}

interface ApprovedInstrument {
  method: 'card' | 'ach';
  brand: string;
  lastFour: string;
  outcome: CardOutcome;
  expMonth?: number;
  expYear?: number;
}

/** The payment: the link paid once (while it is still open), the transaction and its event, written together. */
function settle(request: PaymentRequest, instrument: ApprovedInstrument, now: Date, receiptEmail?: string): Paid {
  const { method } = instrument;
  const charge = chargeFor(
    {
      amount: request.amount,
      discount: request.discount,
      surcharge: request.surcharge,
      tax: request.tax,
      passFee: request.pass_fee === 1,
    },
    method,
  );
  const kind = request.preauth ? 'preauth' : 'sale';
  const transaction: NewTransaction = {
    id: request.sales_id,
    client_id: request.client_id,
    merchant_id: request.merchant_id,
    customer_id: request.customer_id,
    request_id: request.id,
    parent_id: null,
    kind,
    method,
    status: kind === 'preauth' ? 'authorized' : method === 'ach' ? 'pending' : 'completed',
    source: request.source,
    order_id: request.order_id,
    amount: charge.total,
    fee_amount: kind === 'preauth' ? 0 : charge.fee,
    net_amount: kind === 'preauth' ? 0 : charge.total - charge.fee,
    card_brand: instrument.brand,
    last_four: instrument.lastFour,
    auth_code: method === 'card' ? randomCode() : '',
    gateway_ref: newId('gw_'),
    created_at: isoInstant(now),
    completed_at: kind === 'sale' && method === 'card' ? isoInstant(now) : null,
    settled_at: null,
    receipt_email: receiptEmail ?? null,
    // A hold keeps its moves from its authorization on (issue 44).
    ...(kind === 'preauth'
      ? { hold_history: historyWith({ amount: charge.total, created_at: isoInstant(now), hold_history: null }) }
      : {}),
  };
  // A sandbox dispute card's sale is disputed as it is written (docs/disputes.md): the sale carries its dispute.
  const disputeCard = kind === 'sale' && method === 'card' ? DISPUTE_CARDS[instrument.outcome] : undefined;
  const disputed =
    disputeCard && disputeOfSale({ ...transaction, refunded_amount: 0 }, transaction.amount, disputeCard, now);
  if (disputed) transaction.dispute_id = disputed.dispute.id;
  const stored = { ...transaction, refunded_amount: 0 };
  const event =
    kind === 'preauth'
      ? (['preauth', preauthEvent(stored)] as const)
      : method === 'card'
        ? (['payment.success', paymentSuccessEvent(stored, request.id)] as const)
        : undefined;
  // A card paid on a link made for a stored customer is saved, so the merchant can charge it again.
  const saved: Row[] =
    request.customer_id && method === 'card'
      ? [
          {
            table: 'payment_methods',
            row: {
              id: newId('pm_'),
              merchant_id: request.merchant_id,
              customer_id: request.customer_id,
              card_brand: instrument.brand,
              last_four: instrument.lastFour,
              exp_month: instrument.expMonth ?? 0,
              exp_year: instrument.expYear ?? 0,
              outcome: instrument.outcome,
              created_at: isoInstant(now),
            },
          },
        ]
      : [];
  return {
    outcome:
      method === 'ach'
        ? { status: 'pending', transactionId: transaction.id, request }
        : { status: 'approved', transactionId: transaction.id, kind, request },
    change: {
      guards: [
        {
          table: 'payment_requests',
          where: { id: request.id, status: 'open' },
          set: { status: 'paid', transaction_id: transaction.id, paid_at: isoInstant(now) },
        },
      ],
      // A sale's money, an ACH one's pending until its bank answers; a hold moves none until captured.
      rows: [
        { table: 'transactions', row: transaction },
        ...(kind === 'sale' ? entryRows(saleEntries(transaction)) : []),
        ...saved,
        ...(disputed?.rows ?? []),
      ],
      events: [...(event ? [eventRow(request.client_id, event[0], event[1], now)] : []), ...(disputed?.events ?? [])],
    },
  };
}
