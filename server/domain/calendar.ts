import { isoInstant } from './instants.ts';

/** Calendar dates as the interface writes them: "YYYY-MM-DD", compared as text. */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when the text is a real calendar date in YYYY-MM-DD form (2025-02-30 is not). */
export function isIsoDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The UTC calendar date of an instant, as YYYY-MM-DD. */
export function isoDateOf(instant: Date): string {
  return isoInstant(instant).slice(0, 10);
}

/** Whole years from `birthDate` to `today` (both YYYY-MM-DD). */
export function yearsBetween(birthDate: string, today: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}
