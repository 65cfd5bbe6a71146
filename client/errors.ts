import { REFUSAL_REASONS, type RefusalReason } from '../contract/refusal-reasons.ts';

/** The codes the service answers with: its refusal reasons, and `service_error` for a fault on its side. */
type ServiceCode = RefusalReason | 'service_error';

/** Why a Paykit call failed: the service's reason (its `code`), or what happened on the way. */
export type PaykitErrorCode =
  | ServiceCode
  /** The service could not be reached, or did not answer in time. */
  | 'connection_error'
  /** The answer was not what the client is typed for (checked in development): the service and client differ. */
  | 'unexpected_answer';

export interface PaykitErrorOptions {
  code?: PaykitErrorCode;
  body?: unknown;
  retryAfter?: number;
  cause?: unknown;
}

/**
 * Every failure of a Paykit call: an answer other than 2xx (or one with `result: false`), an unreachable
 * service, or no answer within the timeout. The subclasses say which kind, for `instanceof`; `code` says it as a
 * stable word.
 */
export class PaykitError extends Error {
  /** The HTTP status; 0 when no answer came (network error or timeout). */
  readonly status: number;
  /** Why, as a stable word: the service's `code`, or `connection_error` / `unexpected_answer`. */
  readonly code: PaykitErrorCode;
  /** The parsed JSON body of the answer, when there was one. */
  readonly body: unknown;
  /** Seconds to wait before trying again, when the service sent `Retry-After`. */
  readonly retryAfter: number | undefined;

  constructor(status: number, message: string, options: PaykitErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.code = options.code ?? codeOfStatus(status);
    this.body = options.body;
    this.retryAfter = options.retryAfter;
  }
}

/** 400, 408, 413, 414, 415, 417, 431: the request itself is wrong; fix it before sending it again. */
export class PaykitInvalidRequestError extends PaykitError {}
/** 401: the client id or secret key is missing or wrong. */
export class PaykitAuthenticationError extends PaykitError {}
/** 402: the card was declined. */
export class PaykitCardDeclinedError extends PaykitError {}
/** 403: not allowed here (a sandbox-only call in production, for one). */
export class PaykitPermissionError extends PaykitError {}
/** 404: nothing of yours has that id or key. */
export class PaykitNotFoundError extends PaykitError {}
/** 409: the thing is not in a state that allows the call (already captured, an order id taken…). */
export class PaykitConflictError extends PaykitError {}
/** 422: the Idempotency-Key was used with another request. */
export class PaykitIdempotencyError extends PaykitError {}
/** 429: too many requests; `retryAfter` says when to try again. */
export class PaykitRateLimitError extends PaykitError {}
/** 5xx, or an answer the client cannot read: the service's side. */
export class PaykitServiceError extends PaykitError {}
/** No answer: the service could not be reached, or did not answer within the timeout. */
export class PaykitConnectionError extends PaykitError {}

const CODE_OF_STATUS: Record<number, PaykitErrorCode> = {
  400: 'invalid_request',
  401: 'authentication_failed',
  402: 'card_declined',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'body_too_large',
  415: 'unsupported_content_type',
  422: 'idempotency_key_reused',
  429: 'rate_limited',
};

function codeOfStatus(status: number): PaykitErrorCode {
  if (status === 0) return 'connection_error';
  return CODE_OF_STATUS[status] ?? (status >= 500 ? 'service_error' : 'invalid_request');
}

const CLASS_OF_CODE: Record<PaykitErrorCode, typeof PaykitError> = {
  invalid_request: PaykitInvalidRequestError,
  body_too_large: PaykitInvalidRequestError,
  unsupported_content_type: PaykitInvalidRequestError,
  authentication_failed: PaykitAuthenticationError,
  card_declined: PaykitCardDeclinedError,
  forbidden: PaykitPermissionError,
  not_found: PaykitNotFoundError,
  conflict: PaykitConflictError,
  idempotency_key_reused: PaykitIdempotencyError,
  rate_limited: PaykitRateLimitError,
  service_error: PaykitServiceError,
  unexpected_answer: PaykitServiceError,
  connection_error: PaykitConnectionError,
};

const SERVICE_CODES: readonly string[] = [...REFUSAL_REASONS, 'service_error'];
// Only a code the service answers with: `connection_error` and `unexpected_answer` are the client's own to say.
const isServiceCode = (value: unknown): value is ServiceCode =>
  typeof value === 'string' && SERVICE_CODES.includes(value);

/** The error of its kind for a failed call: by the service's `code` when it sent one, else by the status. */
export function paykitError(status: number, message: string, options: PaykitErrorOptions = {}): PaykitError {
  const sent = (options.body as { code?: unknown } | undefined)?.code;
  const code = options.code ?? (isServiceCode(sent) ? sent : codeOfStatus(status));
  return new CLASS_OF_CODE[code](status, message, { ...options, code });
}
