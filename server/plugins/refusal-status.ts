import type { Reason } from '../domain/refusals.ts';

/** The one place where a reason the service refuses a call for becomes an HTTP status. */
export const STATUS_OF_REASON: Record<Reason, number> = {
  invalid_request: 400,
  authentication_failed: 401,
  card_declined: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  body_too_large: 413,
  unsupported_content_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
};
