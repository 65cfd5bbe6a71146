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
