import type { RefusalReason } from '../../contract/refusal-reasons.ts';

/**
 * What went wrong, as a stable code a page can act on; the message says the same for people. Each `*-error`
 * event carries both (docs/widgets.md lists what to do for each code). The service's refusals keep the service's
 * names (the envelope's `code`, the same as `paykit/client`'s); the rest happen only in the browser.
 */
export type WidgetErrorCode =
  /**
   * The service refused the call, by its own reason: `invalid_request` (also what the element was given is wrong, an
   * amount that is not a price or a phone number that is not one, found before any call), `authentication_failed` (a session token
   * missing, expired or refused), `card_declined`, `forbidden` (the page's origin is not among the merchant's
   * allowed origins), `not_found` (a public key the service does not know), `conflict`, `body_too_large`, `unsupported_content_type`,
   * `idempotency_key_reused`, `rate_limited` (too many calls, or too many texts to one phone: try again later).
   */
  | RefusalReason
  /** The service failed or answered what the element did not expect. */
  | 'service_error'
  /** No answer from the service: offline, refused, timed out, or a CORS refusal the browser does not explain. */
  | 'network'
  /** The page's Content-Security-Policy blocked a call or the payment window; `developerMessage` names the directive to add. */
  | 'csp'
  /** The element lacks what it needs to call the service: a public key, the service's address, a session token. */
  | 'config'
  /** The pay link expired before it was paid. */
  | 'expired';

/** The detail of every `*-error` event. */
export interface PaykitErrorDetail {
  /** What went wrong, for code: stable across releases and languages (docs/widgets.md lists them). */
  code: WidgetErrorCode;
  /** A sentence for the payer, in the element's language: what the element shows under its button. */
  message: string;
  /**
   * For the page's developer only, when there is more to say than the payer should read: for `csp`, the directive
   * and the origin to add to the page's Content-Security-Policy. Also written to the console.
   */
  developerMessage?: string;
}

/** A failure of an element, with its code; `developerMessage` is what only the page's developer can act on. */
export class WidgetError extends Error {
  override name = 'WidgetError';
  readonly code: WidgetErrorCode;
  readonly developerMessage?: string;

  constructor(message: string, code: WidgetErrorCode, developerMessage?: string) {
    super(message);
    this.code = code;
    if (developerMessage) this.developerMessage = developerMessage;
  }
}

const CODE_OF_STATUS: Partial<Record<number, RefusalReason>> = {
  401: 'authentication_failed',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'body_too_large',
  415: 'unsupported_content_type',
  429: 'rate_limited',
};

/** The code of a failed answer that carries none of its own (a proxy's page, an older service), by its HTTP status. */
export function codeForStatus(status: number): WidgetErrorCode {
  if (status >= 500 || status < 400) return 'service_error';
  return CODE_OF_STATUS[status] ?? 'invalid_request';
}

/** The code of anything an element caught: its own when it has one. */
function codeOf(error: unknown): WidgetErrorCode {
  return error instanceof WidgetError ? error.code : 'service_error';
}

/** The `*-error` event's detail of anything an element caught. */
export function errorDetail(error: unknown): PaykitErrorDetail {
  const { message, developerMessage } = error as WidgetError;
  return developerMessage ? { code: codeOf(error), message, developerMessage } : { code: codeOf(error), message };
}
