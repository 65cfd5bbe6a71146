import type { Store } from '../store/store.ts';
import type { Reason } from '../domain/refusals.ts';
import { LINK_PROBLEMS, payLinkStatus } from '../domain/pay-links.ts';
import { PAYMENT_PROBLEMS } from '../domain/payment-problems.ts';
import type { PaymentRequest } from '../store/payment-requests.ts';
import type { NewTransaction } from '../store/transactions.ts';
import { chargeFor } from '../domain/payment-amounts.ts';
import { checkCard, DECLINE_MESSAGES, type CardOutcome } from '../domain/test-cards.ts';
import { isValidAccountNumber, isValidRoutingNumber } from '../domain/routing-number.ts';
import { digest, newId, newToken } from '../platform/secrets.ts';
import { payLinkKey } from './pay-link-tokens.ts';
import { paymentSuccessEvent, preauthEvent } from './events.ts';
import { isoInstant } from '../domain/instants.ts';
import { saleEntries } from '../domain/ledger.ts';

interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

export type PaymentDetails =
  | { method: 'card'; card: CardDetails; threeDs?: 'pass' | 'fail' | undefined }
  | { method: 'ach'; routingNumber: string; accountNumber: string; name?: string | undefined };

export type PayOutcome =
  | { status: 'approved'; transactionId: string; kind: 'sale' | 'preauth'; request: PaymentRequest }
  | { status: 'pending'; transactionId: string; request: PaymentRequest }
  | { status: 'declined'; message: string; request: PaymentRequest }
  /** The hosted page shows the 3-D Secure challenge, then calls `completeChallenge` with this token. */
  | { status: 'challenge'; attemptToken: string; request: PaymentRequest }
  | { status: 'refused'; message: string; reason: Reason; request?: PaymentRequest; linkProblem?: keyof typeof LINK_PROBLEMS };

const ATTEMPT_TTL_MS = 15 * 60 * 1000;

function linkRefusal(problem: keyof typeof LINK_PROBLEMS, request?: PaymentRequest): PayOutcome {
  return { status: 'refused', message: LINK_PROBLEMS[problem], reason: problem === 'unknown' ? 'not_found' : 'conflict', request, linkProblem: problem };
}

export type OpenLink = { ok: true; request: PaymentRequest } | { ok: false; problem: keyof typeof LINK_PROBLEMS; request?: PaymentRequest };

/** The request behind a pay link token, if it can still be paid. */
export async function openPayLink(store: Store, token: string, now: Date): Promise<OpenLink> {
  const key = payLinkKey(token);
  const request = key === undefined ? undefined : await store.paymentRequests.findByTokenHash(key);
  if (!request) return { ok: false, problem: 'unknown' };
  const status = payLinkStatus(request, now);
  return status === 'open' ? { ok: true, request } : { ok: false, problem: status, request };
}

function randomCode(): string {
  return newToken('').replace(/[^A-Za-z0-9]/g, '').slice(0, 6).toUpperCase();
}

/**
 * Pays a pay link (or QR link) exactly as the hosted page does; `POST /sandbox/pay` takes the same path.
 * `canChallenge` says whether the caller can show a 3-D Secure challenge (the page can; the API answers
 * with `threeDs` instead).
 */
export async function payLink(store: Store, token: string, details: PaymentDetails, now: Date, canChallenge: boolean): Promise<PayOutcome> {
  const link = await openPayLink(store, token, now);
  if (!link.ok) return linkRefusal(link.problem, link.request);
  const { request } = link;

  if (details.method === 'ach') {
    if (!request.allow_ach) return { status: 'refused', message: PAYMENT_PROBLEMS.noAch, reason: 'invalid_request', request };
    if (!isValidRoutingNumber(details.routingNumber)) return { status: 'refused', message: PAYMENT_PROBLEMS.routing, reason: 'invalid_request', request };
    if (!isValidAccountNumber(details.accountNumber)) return { status: 'refused', message: PAYMENT_PROBLEMS.account, reason: 'invalid_request', request };
    return settle(store, request, { method: 'ach', brand: 'ACH', lastFour: details.accountNumber.slice(-4), outcome: 'approve' }, now);
  }

  if (!request.allow_card) return { status: 'refused', message: PAYMENT_PROBLEMS.noCard, reason: 'invalid_request', request };
  const checked = checkCard(details.card, { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1 });
  if (!checked.ok) return { status: 'refused', message: checked.message, reason: 'invalid_request', request };
  const card = { method: 'card' as const, brand: checked.brand, lastFour: checked.lastFour, outcome: checked.outcome, expMonth: details.card.expMonth, expYear: details.card.expYear };
  if (checked.outcome === 'card_declined' || checked.outcome === 'insufficient_funds') {
    return { status: 'declined', message: DECLINE_MESSAGES[checked.outcome], request };
  }
  const needsChallenge = checked.outcome === 'challenge' || request.require_3ds === 1;
  if (needsChallenge && !details.threeDs) {
    if (!canChallenge) return { status: 'refused', message: PAYMENT_PROBLEMS.needsChallenge, reason: 'invalid_request', request };
    const attemptToken = newToken('tds_');
    await store.paymentRequests.insertAttempt({
      token_hash: digest(attemptToken), request_id: request.id, card_brand: card.brand, last_four: card.lastFour,
      exp_month: card.expMonth, exp_year: card.expYear, outcome: card.outcome,
      expires_at: isoInstant(now, ATTEMPT_TTL_MS), used_at: null,
    });
    return { status: 'challenge', attemptToken, request };
  }
  if (needsChallenge && details.threeDs === 'fail') return { status: 'declined', message: DECLINE_MESSAGES.three_ds_failed, request };
  return settle(store, request, card, now);
}

/** The hosted page's 3-D Secure step: the challenge passed or failed for a card checked before. */
export async function completeChallenge(store: Store, token: string, attemptToken: string, passed: boolean, now: Date): Promise<PayOutcome> {
  const link = await openPayLink(store, token, now);
  if (!link.ok) return linkRefusal(link.problem, link.request);
  const attempt = await store.paymentRequests.useAttempt(digest(attemptToken), link.request.id, isoInstant(now));
  if (!attempt) return { status: 'refused', message: PAYMENT_PROBLEMS.challengeUsed, reason: 'conflict', request: link.request };
  if (!passed) return { status: 'declined', message: DECLINE_MESSAGES.three_ds_failed, request: link.request };
  return settle(store, link.request, {
    method: 'card', brand: attempt.card_brand, lastFour: attempt.last_four, outcome: attempt.outcome,
    expMonth: attempt.exp_month, expYear: attempt.exp_year,
  }, now);
}

interface ApprovedInstrument {
  method: 'card' | 'ach';
  brand: string;
  lastFour: string;
  outcome: CardOutcome;
  expMonth?: number;
  expYear?: number;
}

/** Records the payment: the link is paid once, the transaction and its event commit together. */
async function settle(store: Store, request: PaymentRequest, instrument: ApprovedInstrument, now: Date): Promise<PayOutcome> {
  const { method } = instrument;
  const charge = chargeFor({ amount: request.amount, discount: request.discount, surcharge: request.surcharge, tax: request.tax, passFee: request.pass_fee === 1 }, method);
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
  };
  const paid = await store.transaction(async (tx) => {
    if (!(await tx.paymentRequests.markPaid(request.id, transaction.id, isoInstant(now)))) return false;
    await tx.transactions.insert(transaction);
    // A sale's money, an ACH one's pending until its bank answers; a hold moves none until captured.
    if (kind === 'sale') await tx.ledger.add(saleEntries(transaction));
    const stored = { ...transaction, refunded_amount: 0 };
    if (kind === 'preauth') await tx.events.add(request.client_id, 'preauth', preauthEvent(stored), now);
    else if (method === 'card') await tx.events.add(request.client_id, 'payment.success', paymentSuccessEvent(stored, request.id), now);
    // A card paid on a link made for a stored customer is saved, so the merchant can charge it again.
    if (request.customer_id && method === 'card') {
      await tx.paymentMethods.insert({
        id: newId('pm_'), merchant_id: request.merchant_id, customer_id: request.customer_id, card_brand: instrument.brand,
        last_four: instrument.lastFour, exp_month: instrument.expMonth ?? 0, exp_year: instrument.expYear ?? 0,
        outcome: instrument.outcome, created_at: isoInstant(now),
      });
    }
    return true;
  });
  if (!paid) return linkRefusal('paid', request);
  if (method === 'ach') return { status: 'pending', transactionId: transaction.id, request };
  return { status: 'approved', transactionId: transaction.id, kind, request };
}
