/**
 * What went wrong, as a stable code a page can act on; the message says the same for people. Each `*-error`
 * event carries both (docs/widgets.md lists what to do for each code).
 */
export type PaykitErrorCode =
  /** No answer from the service: offline, refused, timed out, or a CORS refusal the browser does not explain. */
  | 'network'
  /** The page's Content-Security-Policy blocked a call or the payment window; the message names the directive to add. */
  | 'csp'
  /** The service refused the page's origin: it is not among the merchant's allowed origins (PUT /widgets/). */
  | 'origin'
  /** Too many calls, or too many texts to one phone: try again later. */
  | 'rate-limited'
  /** A public key the service does not know, or a session token that is missing, expired or refused. */
  | 'auth'
  /** The element lacks what it needs to call the service: a public key, the service's address, a session token. */
  | 'config'
  /** What the element was given is wrong: an amount that is not a price, a phone number that is not one. */
  | 'invalid-input'
  /** The payer's bank or card issuer declined the payment; the payer may try again. */
  | 'declined'
  /** The pay link expired before it was paid. */
  | 'expired'
  /** The service failed or answered what the element did not expect. */
  | 'service';

/** A failure of an element, with its code. */
export class WidgetError extends Error {
  override name = 'WidgetError';
  readonly code: PaykitErrorCode;

  constructor(
    message: string,
    code: PaykitErrorCode,
  ) {
    super(message);
    this.code = code;
  }
}

/** The code of a failed answer's HTTP status. */
export function codeForStatus(status: number): PaykitErrorCode {
  if (status === 401 || status === 404) return 'auth';
  if (status === 403) return 'origin';
  if (status === 429) return 'rate-limited';
  return status >= 400 && status < 500 ? 'invalid-input' : 'service';
}

/** The code of anything an element caught: its own when it has one. */
export function codeOf(error: unknown): PaykitErrorCode {
  return error instanceof WidgetError ? error.code : 'service';
}
