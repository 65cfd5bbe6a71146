/**
 * Business days as the sandbox's banks keep them: Monday to Friday, no holidays (docs/payouts.md). Dates are UTC
 * calendar dates, "YYYY-MM-DD".
 */

const DAY_MS = 86_400_000;
const WEEKDAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof WEEKDAY_NAMES)[number];
export const WEEKDAYS: readonly Weekday[] = [...WEEKDAY_NAMES.slice(1), WEEKDAY_NAMES[0]];

const toDays = (date: string) => Date.parse(`${date}T00:00:00.000Z`) / DAY_MS;
const fromDays = (days: number) => new Date(days * DAY_MS).toISOString().slice(0, 10);

export const weekdayOf = (date: string): Weekday => WEEKDAY_NAMES[new Date(toDays(date) * DAY_MS).getUTCDay()]!;

export const isBusinessDay = (date: string) => weekdayOf(date) !== 'saturday' && weekdayOf(date) !== 'sunday';

const addDays = (date: string, days: number) => fromDays(toDays(date) + days);

/** The `n`th business day after `date` (which need not be one itself): Friday + 1 is Monday, Saturday + 1 is Monday too. */
export function addBusinessDays(date: string, n: number): string {
  let day = date;
  for (let left = n; left > 0;) {
    day = addDays(day, 1);
    if (isBusinessDay(day)) left--;
  }
  return day;
}
