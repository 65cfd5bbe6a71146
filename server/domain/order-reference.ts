/**
 * The order id the service makes when a pay button's page gives none (`services/widgets.ts`): `w_` and 16 characters
 * of a base64url token. It is the service's own key for the link, not a reference the shopper knows.
 */
const GENERATED_ORDER_ID = /^w_[A-Za-z0-9_-]{16}$/;

export const generatedOrderId = (token: string) => `w_${token.slice(0, 16)}`;

/** The order reference as the merchant gave it, for the shopper to read; none when the service made it up. */
export function shopperOrderReference(orderId: string): string | undefined {
  return GENERATED_ORDER_ID.test(orderId) ? undefined : orderId;
}

/**
 * Why an order id cannot be taken, or undefined. It is stored and matched exactly as sent (docs/security.md), so text
 * that would read the same after trimming, or that holds control characters, is refused rather than changed.
 */
export function orderIdProblem(orderId: string): string | undefined {
  if (orderId.trim() === '') return 'order_id must not be blank.';
  if (orderId.length > 100) return 'order_id must be at most 100 characters.';
  if (orderId.trim() !== orderId)
    return 'order_id must not begin or end with spaces: it is stored exactly as sent, so send it without them.';
  if (/[\x00-\x1f\x7f]/.test(orderId)) return 'order_id must not hold control characters (tabs, line breaks).';
  return undefined;
}
