/** Instants as the service stores and answers them: ISO 8601 UTC text with milliseconds, which sorts as time does. */

const MS_PER_DAY = 86_400_000;
/** The days whose "YYYY-MM-DDT" is known; a request writes a few (now, an expiry days later), so a handful is plenty. */
const dayPrefixes = new Map<number, string>();
const KEPT_DAYS = 16;

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * Exactly `new Date(date.getTime() + offsetMs).toISOString()`: the instant itself, or an expiry or a cutoff that far
 * from it. V8 writes every such string through a printf-style formatter, about a microsecond each, and a payment writes
 * its time three or four times (docs/performance.md): here V8 writes each day's date once and the time
 * of day is put together from whole numbers.
 */
export function isoInstant(date: Date, offsetMs = 0): string {
  const ms = date.getTime() + offsetMs;
  const day = Math.floor(ms / MS_PER_DAY);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    // An invalid date throws here as toISOString does; years past 9999 or before 0 get V8's six-digit form whole.
    const whole = (offsetMs === 0 ? date : new Date(ms)).toISOString();
    if (whole.length !== 24) return whole;
    if (dayPrefixes.size >= KEPT_DAYS) dayPrefixes.clear();
    prefix = whole.slice(0, 11);
    dayPrefixes.set(day, prefix);
  }
  const inDay = ms - day * MS_PER_DAY;
  const seconds = Math.floor(inDay / 1000);
  return `${prefix}${pad2(Math.floor(seconds / 3600))}:${pad2(Math.floor(seconds / 60) % 60)}:${pad2(seconds % 60)}.${pad3(inDay - seconds * 1000)}Z`;
}
