/**
 * Every failure of a Paykit call: an answer other than 2xx (or one with `result: false`), an unreachable
 * service, or no answer within the timeout.
 */
export class PaykitError extends Error {
  /** The HTTP status; 0 when no answer came (network error or timeout). */
  readonly status: number;
  /** The parsed JSON body of the answer, when there was one. */
  readonly body: unknown;
  /** Seconds to wait before trying again, when the service sent `Retry-After`. */
  readonly retryAfter: number | undefined;

  constructor(status: number, message: string, options: { body?: unknown; retryAfter?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PaykitError';
    this.status = status;
    this.body = options.body;
    this.retryAfter = options.retryAfter;
  }
}
