import type { PaykitError } from './errors.ts';

/** The first retry waits about this long; each next one twice as long, up to `MAX_BACKOFF_MS`. */
const BASE_DELAY_MS = 500;
const MAX_BACKOFF_MS = 8_000;
/** A `Retry-After` longer than this is not waited for: the call fails with it, and the caller decides. */
const MAX_RETRY_AFTER_SECONDS = 60;

/**
 * Whether a failed attempt may be tried again: no answer came (the request may not have arrived), the service is
 * still working on the same Idempotency-Key (409 with Retry-After), too many requests (429), or the service's own
 * failure (5xx). Anything else would fail the same way again.
 */
export function shouldRetry(error: PaykitError): boolean {
  if (error.code === 'connection_error') return true;
  if (error.status === 409) return error.retryAfter !== undefined;
  return error.status === 429 || error.status >= 500;
}

/**
 * How long to wait before retry number `attempt + 1`: what `Retry-After` says (up to a minute), else exponential
 * backoff with jitter (half fixed, half random), so that many clients failing at once do not retry at once.
 * Undefined when the wait asked for is too long to hold the call open.
 */
export function retryDelayMs(
  attempt: number,
  retryAfterSeconds: number | undefined,
  random: () => number,
): number | undefined {
  if (retryAfterSeconds !== undefined)
    return retryAfterSeconds > MAX_RETRY_AFTER_SECONDS ? undefined : retryAfterSeconds * 1000;
  const backoff = Math.min(MAX_BACKOFF_MS, BASE_DELAY_MS * 2 ** attempt);
  return Math.round(backoff / 2 + random() * (backoff / 2));
}
