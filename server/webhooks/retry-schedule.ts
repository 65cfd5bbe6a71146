/**
 * When to try a failed delivery again: growing delays for about three days (5 s, 5 min, 30 min, 2 h, 5 h,
 * then 10 h seven times: 77.6 hours after the first attempt), each with ±10% jitter so that many
 * receivers coming back at once are not hit at the same instant.
 */
export const DEFAULT_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000, 36000, 36000, 36000, 36000, 36000];

/** The longest a `Retry-After` may push a retry out. */
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

export type RetryPlan = { retry: true; delayMs: number } | { retry: false };

/**
 * After the `attempts`-th failed attempt (1 for the first), the delay before the next one, or none when the
 * schedule is used up. A `Retry-After` (from a 429 or 503) replaces the scheduled delay.
 */
export function planRetry(
  attempts: number,
  scheduleSeconds: number[],
  retryAfterMs: number | undefined,
  random: () => number,
): RetryPlan {
  const base = scheduleSeconds[attempts - 1];
  if (base === undefined) return { retry: false };
  if (retryAfterMs !== undefined)
    return { retry: true, delayMs: Math.min(Math.max(retryAfterMs, 1000), MAX_RETRY_AFTER_MS) };
  const jitter = 1 + (random() * 0.2 - 0.1);
  return { retry: true, delayMs: Math.round(base * 1000 * jitter) };
}

/** A `Retry-After` header in seconds or as an HTTP date, in milliseconds from `now`; undefined when absent or bad. */
export function parseRetryAfter(header: string | undefined, now: Date): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}
