import type { Store } from '../store/store.ts';
import type { Payout, PayoutAccount, PayoutScope, PayoutSettings } from '../store/payouts.ts';
import type { MerchantAccount } from '../store/merchants.ts';
import { conflict, invalid, Refusal } from '../domain/refusals.ts';
import { isoDateOf } from '../domain/calendar.ts';
import { isoInstant } from '../domain/instants.ts';
import { WEEKDAYS, type Weekday } from '../domain/business-days.ts';
import { isValidAccountNumber, isValidRoutingNumber } from '../domain/routing-number.ts';
import { lastFour } from '../domain/onboarding.ts';
import {
  arrivalDate,
  decidePayout,
  DEFAULT_SCHEDULE,
  nextPayoutStatus,
  PAYOUT_FAILURE,
  PAYOUT_INTERVALS,
  PAYOUT_PROBLEMS,
  scheduledPeriod,
  type PayoutInterval,
  type PayoutSchedule,
  type PayoutStatus,
} from '../domain/payouts.ts';
import { newId } from '../platform/secrets.ts';
import { payoutEvent } from './events.ts';

/** Where and when a merchant is paid out: its settings as changed, else the defaults and the onboarding account. */
export interface MerchantPayouts {
  schedule: PayoutSchedule;
  bankLastFour: string;
  routingNumber: string;
  paused: boolean;
  pausedAt: string | null;
}

function payoutsOf(account: PayoutAccount | undefined): MerchantPayouts {
  const settings = account?.settings;
  return {
    schedule: settings ? { interval: settings.interval, weeklyAnchor: settings.weekly_anchor } : DEFAULT_SCHEDULE,
    bankLastFour: settings?.bank_last_four ?? account?.onboardingLastFour ?? '',
    routingNumber: settings?.bank_routing_number ?? account?.onboardingRoutingNumber ?? '',
    paused: Boolean(settings?.paused_at),
    pausedAt: settings?.paused_at ?? null,
  };
}

export const merchantPayouts = async (store: Store, merchantId: string) =>
  payoutsOf(await store.payouts.account(merchantId));

/** What a payout run did. */
export interface PayoutRun {
  created: number;
  in_transit: number;
  paid: number;
  failed: number;
}

/**
 * One payout run at `now` (the service's timer, `POST /sandbox/payouts/run`, a move of the sandbox clock): payouts
 * under way move one step (`nextPayoutStatus`), then each merchant with money available and a period due gets its
 * payout. Every process may run at once: the unique (merchant, period) key lets one payout through, and each step
 * applies only to a payout still in the state read. `scope` limits it to one client's merchants, or one merchant.
 */
export async function runPayouts(store: Store, now: Date, scope: PayoutScope = {}): Promise<PayoutRun> {
  const today = isoDateOf(now);
  const run: PayoutRun = { created: 0, in_transit: 0, paid: 0, failed: 0 };
  for (const payout of await store.payouts.open(scope)) {
    const next = nextPayoutStatus(payout, today);
    if (next && (await movePayout(store, payout, next, now))) run[next as Exclude<PayoutStatus, 'pending'>]++;
  }
  for (const merchant of await store.payouts.withAvailableMoney(today, scope)) {
    const payouts = await merchantPayouts(store, merchant.merchant_id);
    const period = scheduledPeriod(payouts.schedule, today);
    if (
      !period ||
      !decidePayout(merchant.available, payouts).ok ||
      (await store.payouts.hasPeriod(merchant.merchant_id, period))
    )
      continue;
    if (await makePayout(store, { id: merchant.merchant_id, client_id: merchant.client_id }, payouts, period, now))
      run.created++;
  }
  return run;
}

/**
 * A payout of everything available by `now`, in one unit: the payout, its entries swept into it, `payout.created`.
 * Undefined when the period's payout exists already, or when what it swept does not add up to a positive sum (an
 * entry that landed since the balance was read): then nothing is kept.
 */
async function makePayout(
  store: Store,
  merchant: Pick<MerchantAccount, 'id' | 'client_id'>,
  payouts: MerchantPayouts,
  period: string | null,
  now: Date,
): Promise<Payout | undefined> {
  const today = isoDateOf(now);
  const payout: Payout = {
    id: newId('po_'),
    client_id: merchant.client_id,
    merchant_id: merchant.id,
    period,
    amount: 0,
    entry_count: 0,
    status: 'pending',
    bank_last_four: payouts.bankLastFour,
    arrival_date: arrivalDate(today),
    created_at: isoInstant(now),
    updated_at: isoInstant(now),
    failure_code: null,
    failure_message: null,
  };
  return store.transaction(async (tx) => {
    const swept = await tx.payouts.sweep(payout, today);
    if (!swept) return undefined;
    if (swept.amount <= 0) {
      await tx.payouts.undo(payout.id);
      return undefined;
    }
    const made = { ...payout, amount: swept.amount, entry_count: swept.count };
    await tx.events.add(merchant.client_id, 'payout.created', payoutEvent(made), now);
    return made;
  });
}

/**
 * One step of a payout, with its event: to the bank, paid, or failed (its entries back in the balance, and the
 * merchant's payouts paused until its bank account changes). False when another run moved it first.
 */
async function movePayout(store: Store, payout: Payout, status: PayoutStatus, now: Date): Promise<boolean> {
  const failure =
    status === 'failed'
      ? { failure_code: PAYOUT_FAILURE.code, failure_message: PAYOUT_FAILURE.message(payout.bank_last_four) }
      : {};
  return store.transaction(async (tx) => {
    if (!(await tx.payouts.transition(payout.id, payout.status, { status, updated_at: isoInstant(now), ...failure })))
      return false;
    const moved = { ...payout, status, updated_at: isoInstant(now), ...failure };
    if (status === 'paid') await tx.events.add(payout.client_id, 'payout.paid', payoutEvent(moved), now);
    if (status === 'failed') {
      await tx.payouts.release(payout.id);
      const payouts = await merchantPayouts(tx, payout.merchant_id);
      // Paused until the account changes, unless it changed while the payout was on its way.
      const unchanged = payouts.bankLastFour === payout.bank_last_four;
      await tx.payouts.saveSettings(payout.merchant_id, {
        ...settingsRow(payouts, now),
        paused_at: unchanged ? isoInstant(now) : payouts.pausedAt,
      });
      await tx.events.add(payout.client_id, 'payout.failed', payoutEvent(moved), now);
    }
    return true;
  });
}

const settingsRow = (payouts: MerchantPayouts, now: Date): PayoutSettings => ({
  interval: payouts.schedule.interval,
  weekly_anchor: payouts.schedule.weeklyAnchor,
  bank_last_four: payouts.bankLastFour || null,
  bank_routing_number: payouts.routingNumber || null,
  paused_at: payouts.pausedAt,
  updated_at: isoInstant(now),
});

/** `POST /payouts`: a payout of the available balance now, for a merchant on a manual schedule. */
export async function payOutNow(store: Store, merchant: MerchantAccount, now: Date): Promise<Payout> {
  const payouts = await merchantPayouts(store, merchant.id);
  if (payouts.schedule.interval !== 'manual') throw conflict(PAYOUT_PROBLEMS.notManual);
  const { available } = await store.ledger.balance(merchant.id, isoDateOf(now));
  const decision = decidePayout(available, payouts);
  if (!decision.ok) throw new Refusal(decision.reason, decision.message);
  const made = await makePayout(store, merchant, payouts, null, now);
  // Another payout took the money between the read and the sweep.
  if (!made) throw conflict(PAYOUT_PROBLEMS.nothingAvailable(0));
  return made;
}

export interface PayoutSettingsChange {
  interval?: PayoutInterval | undefined;
  weekly_anchor?: Weekday | undefined;
  routing_number?: string | undefined;
  account_number?: string | undefined;
}

/**
 * `PUT /payouts/settings`: the schedule, and the bank account (routing and account number together; only the last
 * four digits of the account are kept). A new account resumes payouts paused by a failed one.
 */
export async function changePayoutSettings(
  store: Store,
  merchant: MerchantAccount,
  change: PayoutSettingsChange,
  now: Date,
): Promise<MerchantPayouts> {
  if (change.interval !== undefined && !PAYOUT_INTERVALS.includes(change.interval))
    throw invalid(`interval must be one of ${PAYOUT_INTERVALS.join(', ')}.`);
  if (change.weekly_anchor !== undefined && !WEEKDAYS.includes(change.weekly_anchor))
    throw invalid(`weekly_anchor must be one of ${WEEKDAYS.join(', ')}.`);
  const newAccount = change.routing_number !== undefined || change.account_number !== undefined;
  if (newAccount) {
    if (!change.routing_number || !isValidRoutingNumber(change.routing_number))
      throw invalid('routing_number must be a nine-digit ABA routing number with a valid checksum, e.g. "110000000".');
    if (!change.account_number || !isValidAccountNumber(change.account_number))
      throw invalid('account_number must be 4 to 17 digits.');
  }
  return store.transaction(async (tx) => {
    const payouts = await merchantPayouts(tx, merchant.id);
    const changed: MerchantPayouts = {
      schedule: {
        interval: change.interval ?? payouts.schedule.interval,
        weeklyAnchor: change.weekly_anchor ?? payouts.schedule.weeklyAnchor,
      },
      bankLastFour: newAccount ? lastFour(change.account_number!) : payouts.bankLastFour,
      routingNumber: newAccount ? change.routing_number! : payouts.routingNumber,
      paused: newAccount ? false : payouts.paused,
      pausedAt: newAccount ? null : payouts.pausedAt,
    };
    await tx.payouts.saveSettings(merchant.id, settingsRow(changed, now));
    return changed;
  });
}
