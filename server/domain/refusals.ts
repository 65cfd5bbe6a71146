/**
 * Why the service refuses a call, in its own words: a small closed set. Domain rules and services speak only in
 * these; the HTTP edge (server/plugins/envelope-errors.ts) turns each into a status, and answers the reason as the
 * envelope's `code`, so a partner's code can branch on it without parsing messages.
 */
export const REASONS = [
  /** The request is malformed or breaks a rule of the interface. */
  'invalid_request',
  /** No credentials, or wrong ones. */
  'authentication_failed',
  /** The card was declined or has insufficient funds. */
  'card_declined',
  /** The caller may not do this here: a sandbox-only call in production, another site's page, an origin not allowed. */
  'forbidden',
  /** Nothing of the caller's has that id or key. */
  'not_found',
  /** The thing is not in a state that allows the call: already captured, an order id taken, a request in progress. */
  'conflict',
  /** The body is larger than the service takes. */
  'body_too_large',
  /** The body's content-type is not one the call takes. */
  'unsupported_content_type',
  /** An Idempotency-Key was used before with a different request, or its first answer can no longer be read. */
  'idempotency_key_reused',
  /** Too many requests: wait and try again. */
  'rate_limited',
] as const;

export type Reason = (typeof REASONS)[number];

/** A refused call: what was wrong (`message`, a sentence the caller can act on) and why (`reason`). */
export class Refusal extends Error {
  readonly reason: Reason;
  /** Field-level details, when there are several problems (e.g. every invalid onboarding field). */
  readonly details?: unknown;
  /** For `rate_limited` and in-progress conflicts: when a retry may succeed. */
  readonly retryAfterSeconds?: number;

  constructor(reason: Reason, message: string, details?: unknown, retryAfterSeconds?: number) {
    super(message);
    this.reason = reason;
    this.details = details;
    this.retryAfterSeconds = retryAfterSeconds;
    this.name = 'Refusal';
  }
}

export const invalid = (message: string, details?: unknown) => new Refusal('invalid_request', message, details);
export const notFound = (message: string) => new Refusal('not_found', message);
export const conflict = (message: string, retryAfterSeconds?: number) =>
  new Refusal('conflict', message, undefined, retryAfterSeconds);
export const forbidden = (message: string) => new Refusal('forbidden', message);
export const declined = (message: string) => new Refusal('card_declined', message);
export const unauthenticated = (message: string) => new Refusal('authentication_failed', message);
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new Refusal('rate_limited', message, undefined, retryAfterSeconds);

/** What a domain rule decides when it refuses: the reason and the sentence, without throwing. */
export interface RefusedDecision {
  ok: false;
  reason: Reason;
  message: string;
}

export const refusedBecause = (reason: Reason, message: string): RefusedDecision => ({ ok: false, reason, message });
