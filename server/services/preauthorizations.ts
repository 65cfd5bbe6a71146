import { cursorFields, pageStart } from './cursors.ts';
import type { Store } from '../store/store.ts';
import type { MerchantAccount } from '../store/merchants.ts';
import { ownColumns, type Transaction } from '../store/transactions.ts';
import { Refusal, invalid, notFound, type RefusedDecision } from '../domain/refusals.ts';
import { formatAmount, MAX_PAYMENT, overMaximum, positiveAmount, toMajorNumber } from '../domain/money.ts';
import { processingFee } from '../domain/pricing.ts';
import { belowMinimumProblem } from '../domain/payment-amounts.ts';
import { DEFAULT_MINIMUM_PAYMENT } from '../platform/config.ts';
import {
  captureMoves,
  checkOpenAuthorization,
  decideAmountChange,
  historyWith,
  holdTotals,
  movesOf,
  PREAUTH_ERRORS,
  type HoldMove,
} from '../domain/preauth.ts';
import { newId } from '../platform/secrets.ts';
import { preauthChargeEvent, preauthEvent } from './events.ts';
import { isoInstant } from '../domain/instants.ts';
import type { EventExtras } from './refunds.ts';
import { eventRow } from '../store/events.ts';
import { canReachShopper } from './receipts.ts';
import { saleEntries } from '../domain/ledger.ts';
import { entryRows } from '../store/ledger.ts';
import type { Change } from '../store/changes.ts';
import type { TransactionStatus } from '../store/schema.ts';

function amountOf(field: string, text: string | number | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  const minor = positiveAmount(field, text);
  if (typeof minor !== 'number') throw invalid(minor.problem);
  if (minor > MAX_PAYMENT) throw invalid(overMaximum(field));
  return minor;
}

const fail = (check: RefusedDecision) => new Refusal(check.reason, check.message);

/** A change to a hold decided on `auth` as read: it applies only while the hold still reads so (changes.ts). */
function holdChange(
  auth: Transaction,
  set: { status?: TransactionStatus; amount?: number; hold_history: string },
  rows: Change['rows'],
  events: Change['events'],
): Change {
  const where = {
    id: auth.id,
    merchant_id: auth.merchant_id,
    status: auth.status,
    amount: auth.amount,
    settled_at: auth.settled_at,
  };
  return {
    guards: [{ table: 'transactions', where, atMost: { refunded_amount: auth.refunded_amount }, set }],
    rows,
    events,
  };
}

/**
 * POST /preauth/capture: charges the amount authorized now, once; `preauth.charge` follows. Decided on the hold as
 * read and written only while it still reads so, so of two captures one charges. With `amount` (the console), the
 * hold is first changed to it, in the same change (`preauth.increment` or `preauth.decrement` before the charge).
 */
export async function capture(
  store: Store,
  merchant: MerchantAccount,
  authorizationId: string,
  lastAuthorized: string | number | undefined,
  now: Date,
  extras: EventExtras = {},
  amount?: number,
  minimumPayment = DEFAULT_MINIMUM_PAYMENT,
) {
  const last = amountOf('last_authorized_amount', lastAuthorized);
  const small = amount === undefined ? null : belowMinimumProblem('amount', amount, minimumPayment);
  if (small) throw invalid(small);
  const read = await store.transactions.findForChange(merchant.id, authorizationId);
  const check = checkOpenAuthorization(read, last);
  if (!check.ok) throw fail(check);
  const changed =
    amount === undefined || amount === read!.amount ? undefined : decideAmountChange(read, read!.amount, amount);
  if (changed && !changed.ok) throw fail(changed);
  const at = isoInstant(now);
  const charged = amount ?? read!.amount;
  // Captured at more than it held, the hold was raised first; at less, the rest is released.
  const moves: HoldMove[] =
    charged > read!.amount
      ? [
          { move: 'increased', amount: charged, at },
          { move: 'captured', amount: charged, at },
        ]
      : captureMoves(read!.amount, charged, at);
  const auth = { ...ownColumns(read!), amount: charged, hold_history: historyWith(read!, ...moves) };
  const fee = processingFee('card', auth.amount);
  const sale: Transaction = {
    ...auth,
    id: newId('txn_'),
    parent_id: auth.id,
    kind: 'sale',
    status: 'completed',
    fee_amount: fee,
    net_amount: auth.amount - fee,
    refunded_amount: 0,
    gateway_ref: newId('gw_'),
    created_at: isoInstant(now),
    completed_at: isoInstant(now),
    settled_at: null,
    hold_history: null,
  };
  const chargeRow = eventRow(
    merchant.client_id,
    'preauth.charge',
    { ...preauthChargeEvent(auth, sale), ...extras },
    now,
  );
  const events = changed?.ok
    ? [eventRow(merchant.client_id, changed.event, { ...preauthEvent(auth), ...extras }, now), chargeRow]
    : [chargeRow];
  return {
    change: holdChange(
      read!,
      { status: 'captured', amount: auth.amount, hold_history: auth.hold_history },
      [{ table: 'transactions', row: sale }, ...entryRows(saleEntries(sale))],
      events,
    ),
    // Whether the charge has a receipt to send (the hold's request named a phone or address): else it is the change alone.
    shopperReachable: canReachShopper(read!),
    result: {
      Status: 'Approved' as const,
      Account: sale.last_four,
      Brand: sale.card_brand,
      AuthCode: sale.auth_code,
      amount: formatAmount(sale.amount),
      Authorized: toMajorNumber(auth.amount),
      orderid: sale.order_id,
      transaction_id: sale.id,
      net_amount: toMajorNumber(sale.net_amount),
    },
  };
}

/** POST /preauth/update: raises or lowers the authorized amount; a stale `last_authorized_amount` is refused. */
export async function changeAuthorizedAmount(
  store: Store,
  merchant: MerchantAccount,
  authorizationId: string,
  lastAuthorized: string | number,
  newAuthorized: string | number,
  now: Date,
  extras: EventExtras = {},
  minimumPayment = DEFAULT_MINIMUM_PAYMENT,
) {
  const last = amountOf('last_authorized_amount', lastAuthorized)!;
  const next = amountOf('new_authorized_amount', newAuthorized)!;
  const small = belowMinimumProblem('new_authorized_amount', next, minimumPayment);
  if (small) throw invalid(small);
  const auth = await store.transactions.findForChange(merchant.id, authorizationId);
  const decision = decideAmountChange(auth, last, next);
  if (!decision.ok) throw fail(decision);
  const move = decision.event === 'preauth.increment' ? 'increased' : 'decreased';
  const hold_history = historyWith(auth!, { move, amount: next, at: isoInstant(now) });
  return {
    change: holdChange(
      auth!,
      { amount: next, hold_history },
      [],
      [
        eventRow(
          merchant.client_id,
          decision.event,
          { ...preauthEvent({ ...auth!, amount: next, hold_history }), ...extras },
          now,
        ),
      ],
    ),
    result: {
      transaction_id: auth!.id,
      order_id: auth!.order_id,
      previous_amount: formatAmount(last),
      authorized_amount: formatAmount(next),
      change: decision.event === 'preauth.increment' ? ('increment' as const) : ('decrement' as const),
    },
  };
}

/**
 * A hold as GET /preauth answers it: the amount authorized now, its state, the sale a capture made, and its history
 * (a hold captured before histories were kept gets its capture from the sale).
 */
function holdView(auth: Transaction, capture: Transaction | undefined) {
  const kept = movesOf(auth);
  const moves =
    capture && !kept.some((m) => m.move === 'captured')
      ? [...kept, { move: 'captured' as const, amount: capture.amount, at: capture.created_at }]
      : kept;
  const totals = holdTotals(moves);
  const text = (minor: number | null) => (minor === null ? null : formatAmount(minor));
  return {
    transaction_id: auth.id,
    order_id: auth.order_id,
    amount: formatAmount(auth.amount),
    status: auth.status as 'authorized' | 'captured' | 'voided',
    customer_id: auth.customer_id ?? '',
    card_brand: auth.card_brand,
    last_four: auth.last_four,
    created_date: auth.created_at,
    captured_transaction_id: capture?.id ?? null,
    authorized_amount: formatAmount(totals.authorized),
    captured_amount: text(totals.captured),
    released_amount: text(totals.released),
    history: moves.map((m) => ({ move: m.move, amount: formatAmount(m.amount), at: m.at })),
  };
}

/** GET /preauth/{transaction_id}: one hold of the merchant's, whatever its state. */
export async function readHold(store: Store, merchant: MerchantAccount, authorizationId: string) {
  const auth = await store.transactions.find(merchant.id, authorizationId);
  if (!auth || auth.kind !== 'preauth') throw notFound(PREAUTH_ERRORS.notFound);
  return holdView(auth, (await store.transactions.capturesOf(merchant.id, [auth.id])).get(auth.id));
}

/** GET /preauth: the merchant's holds, newest first. */
export async function listHolds(
  store: Store,
  merchant: MerchantAccount,
  status: 'authorized' | 'captured' | 'voided' | undefined,
  page: number,
  perPage: number,
  cursor?: string,
) {
  const start = pageStart(cursor, page, perPage);
  const listed = await store.transactions.page(merchant.id, { view: 'holds', status }, perPage, start);
  const items = listed.items;
  const captures = await store.transactions.capturesOf(
    merchant.id,
    items.filter((auth) => auth.status === 'captured').map((auth) => auth.id),
  );
  return {
    items: items.map((auth) => holdView(auth, captures.get(auth.id))),
    page,
    perPage,
    totalCount: listed.total,
    ...cursorFields(listed),
  };
}

/** POST /preauth/void: releases the hold; the authorization can no longer be captured. */
export async function releaseAuthorization(
  store: Store,
  merchant: MerchantAccount,
  authorizationId: string,
  now: Date,
) {
  const auth = await store.transactions.findForChange(merchant.id, authorizationId);
  const check = checkOpenAuthorization(auth);
  if (!check.ok) throw fail(check);
  const hold_history = historyWith(auth!, { move: 'released', amount: auth!.amount, at: isoInstant(now) });
  return {
    change: holdChange(auth!, { status: 'voided', hold_history }, [], []),
    result: {
      transaction_id: auth!.id,
      order_id: auth!.order_id,
      amount: formatAmount(auth!.amount),
      Status: 'Voided' as const,
    },
  };
}
