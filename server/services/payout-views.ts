import type { Store } from '../store/store.ts';
import type { Payout } from '../store/payouts.ts';
import type { ListedEntry } from '../store/ledger.ts';
import { notFound } from '../domain/refusals.ts';
import { formatAmount } from '../domain/money.ts';
import { isoDateOf } from '../domain/calendar.ts';
import { isFeeEntry } from '../domain/ledger.ts';
import { cursorFields, readCursor } from './cursors.ts';
import { merchantPayouts, type MerchantPayouts } from './payouts.ts';

/** GET /balance: what is available to pay out and what is still pending, from the ledger's balances. */
export async function balanceView(store: Store, merchantId: string, now: Date) {
  const { available, pending } = await store.ledger.balance(merchantId, isoDateOf(now));
  return { currency: 'USD' as const, available: formatAmount(available), pending: formatAmount(pending) };
}

export function payoutView(payout: Payout) {
  return {
    payout_id: payout.id,
    amount: formatAmount(payout.amount),
    currency: 'USD' as const,
    status: payout.status,
    period: payout.period,
    arrival_date: payout.arrival_date,
    bank_last_four: payout.bank_last_four,
    entry_count: payout.entry_count,
    created_date: payout.created_at,
    failure_code: payout.failure_code,
    failure_message: payout.failure_message,
  };
}

/** An entry as the API lists it: gross, fee and net, as a merchant's statement shows a line (net = gross − fee). */
export function entryView(entry: ListedEntry) {
  const fee = isFeeEntry(entry.type);
  return {
    type: entry.type,
    gross: formatAmount(fee ? 0 : entry.amount),
    fee: formatAmount(fee ? -entry.amount : 0),
    net: formatAmount(entry.amount),
    transaction_id: entry.transaction_id,
    order_id: entry.order_id,
    created_date: entry.created_at,
    available_on: entry.available_on,
    payout_id: entry.payout_id,
  };
}

export const settingsView = (payouts: MerchantPayouts) => ({
  interval: payouts.schedule.interval,
  weekly_anchor: payouts.schedule.weeklyAnchor,
  bank_last_four: payouts.bankLastFour,
  routing_number: payouts.routingNumber,
  paused: payouts.paused,
  paused_at: payouts.pausedAt,
});

export const payoutSettingsView = async (store: Store, merchantId: string) =>
  settingsView(await merchantPayouts(store, merchantId));

/** The merchant's payout `id`, or 404: another merchant's is as unknown as a made-up one. */
export async function ownPayout(store: Store, merchantId: string, id: string): Promise<Payout> {
  const payout = await store.payouts.find(merchantId, id);
  if (!payout) throw notFound(`No payout ${id} for this merchant.`);
  return payout;
}

/** GET /payouts: newest first, by cursor. */
export async function listPayouts(store: Store, merchantId: string, limit: number, cursor: string | undefined) {
  const page = await store.payouts.page(
    merchantId,
    limit,
    cursor === undefined ? { offset: 0 } : { after: readCursor(cursor) },
  );
  return { items: page.items.map(payoutView), ...cursorFields(page) };
}

/** GET /payouts/{id}/entries: the entries a payout swept, newest first, by cursor. */
export async function listPayoutEntries(
  store: Store,
  merchantId: string,
  payoutId: string,
  limit: number,
  cursor: string | undefined,
) {
  await ownPayout(store, merchantId, payoutId);
  const page = await store.ledger.page(
    merchantId,
    { payoutId },
    limit,
    cursor === undefined ? undefined : readCursor(cursor),
  );
  return { items: page.items.map(entryView), ...cursorFields(page) };
}

/**
 * A transaction's money as its details show it: the processor's fee it kept (a void or return gives it back, so its
 * reversals count), and the payout its own money went out in (null while in the balance).
 */
export async function moneyOf(store: Store, merchantId: string, transactionId: string, reversalIds: string[] = []) {
  const entries = await store.ledger.ofTransactions(merchantId, [transactionId, ...reversalIds]);
  const payoutId = entries.find((e) => e.transaction_id === transactionId && e.payout_id !== null)?.payout_id;
  const payout = payoutId ? await store.payouts.find(merchantId, payoutId) : undefined;
  return {
    // The processor's fee alone: a dispute's fee is the dispute's (GET /disputes/{id}).
    fee_amount: formatAmount(
      -entries.filter((e) => e.type === 'fee' || e.type === 'fee_refund').reduce((sum, e) => sum + e.amount, 0),
    ),
    payout: payout ? { payout_id: payout.id, status: payout.status, arrival_date: payout.arrival_date } : null,
  };
}
