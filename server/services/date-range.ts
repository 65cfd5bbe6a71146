import { invalid } from '../domain/refusals.ts';
import { isIsoDate } from '../domain/calendar.ts';
import { isoInstant } from '../domain/instants.ts';

const nextDay = (date: string) => isoInstant(new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000));

/** `from_date` and `to_date` (inclusive UTC dates, YYYY-MM-DD) as the instants [from, to) that listings filter on. */
export function readRange(from?: string, to?: string) {
  for (const [name, value] of [
    ['from_date', from],
    ['to_date', to],
  ] as const) {
    if (value !== undefined && value !== '' && !isIsoDate(value))
      throw invalid(`${name} must be a date written YYYY-MM-DD, e.g. "2026-01-31".`);
  }
  if (from && to && from > to) throw invalid('from_date must not be after to_date.');
  return { from: from ? `${from}T00:00:00.000Z` : undefined, to: to ? nextDay(to) : undefined };
}
