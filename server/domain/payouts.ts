/** Payouts: when a merchant's available money goes to its bank account, and what becomes of it (docs/payouts.md). */
import { addBusinessDays, isBusinessDay, weekdayOf, type Weekday } from './business-days.ts';
import { formatAmount } from './money.ts';
import { refusedBecause, type RefusedDecision } from './refusals.ts';

export const PAYOUT_INTERVALS = ['daily', 'weekly', 'manual'] as const;
export type PayoutInterval = (typeof PAYOUT_INTERVALS)[number];
export const PAYOUT_STATUSES = ['pending', 'in_transit', 'paid', 'failed'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export interface PayoutSchedule {
  interval: PayoutInterval;
  /** The day of the week a weekly payout is made. */
  weeklyAnchor: Weekday;
}
export const DEFAULT_SCHEDULE: PayoutSchedule = { interval: 'daily', weeklyAnchor: 'monday' };

/**
 * The period whose scheduled payout is due on `today`, named by its date: each business day for a daily schedule, the
 * anchor day for a weekly one (as Stripe's: a sandbox clock moved past it waits for the next). Undefined when none
 * is: a manual schedule, a weekend, another day of the week.
 */
export function scheduledPeriod(schedule: PayoutSchedule, today: string): string | undefined {
  if (schedule.interval === 'manual') return undefined;
  if (schedule.interval === 'daily') return isBusinessDay(today) ? today : undefined;
  return weekdayOf(today) === schedule.weeklyAnchor ? today : undefined;
}

/** A payout reaches the bank the next business day after it was made. */
export const arrivalDate = (createdOn: string) => addBusinessDays(createdOn, 1);

/**
 * The sandbox's bank account whose payouts fail (as Stripe's test account 000111111116): Paykit keeps the last four
 * digits of an account only, so the sandbox knows it by them.
 */
const FAILING_ACCOUNT_LAST_FOUR = '1116';

export const PAYOUT_FAILURE = {
  code: 'account_closed',
  message: (lastFour: string) =>
    `The bank account ending ${lastFour} is closed: the payout's money is back in the available balance, and payouts are paused until the bank account is changed.`,
} as const;

/**
 * What a payout becomes at a payout run on `today`: a pending one goes to the bank (`in_transit`); one in transit
 * arrives on its arrival date, paid, or failed when the account refuses it. Undefined: nothing changes.
 */
export function nextPayoutStatus(
  payout: { status: PayoutStatus; arrival_date: string; bank_last_four: string },
  today: string,
): PayoutStatus | undefined {
  if (payout.status === 'pending') return 'in_transit';
  if (payout.status !== 'in_transit' || payout.arrival_date > today) return undefined;
  return payout.bank_last_four === FAILING_ACCOUNT_LAST_FOUR ? 'failed' : 'paid';
}

export const PAYOUT_PROBLEMS = {
  paused: 'Payouts are paused: the last payout failed. Change the bank account (PUT /payouts/settings) to resume them.',
  notManual:
    'This merchant is paid out on a schedule: set its payout schedule to manual (PUT /payouts/settings) to make payouts yourself.',
  nothingAvailable: (available: number) =>
    `Nothing to pay out: the available balance is ${formatAmount(available)}. A negative balance is carried forward and settled from later sales.`,
  noBankAccount: 'The merchant has no bank account to pay out to: give one with PUT /payouts/settings.',
} as const;

/**
 * Whether a payout may be made now of `available` minor units: only of a positive balance (a negative one is
 * carried forward), to an account, and not while paused by a failed payout.
 */
export function decidePayout(
  available: number,
  account: { paused: boolean; bankLastFour: string },
): { ok: true } | RefusedDecision {
  if (account.paused) return refusedBecause('conflict', PAYOUT_PROBLEMS.paused);
  if (!account.bankLastFour) return refusedBecause('conflict', PAYOUT_PROBLEMS.noBankAccount);
  if (available <= 0) return refusedBecause('conflict', PAYOUT_PROBLEMS.nothingAvailable(available));
  return { ok: true };
}
