import { isoInstant } from './instants.ts';

/** Where a pay link and its QR code live on the service: the token is the link's only credential. */
export const payPath = (token: string) => `/pay/${token}`;
export const qrPath = (token: string) => `/pay/${token}/qr.png`;

/** Why a pay link cannot be paid, in the words the customer and the partner read. */
export const LINK_PROBLEMS = {
  unknown: 'This pay link is not valid.',
  paid: 'This pay link has already been paid.',
  expired: 'This pay link has expired: ask the merchant for a new one.',
} as const;

/** What a pay link's holder sees of it: paid, expired (the seven days ran out unpaid), or still open. */
export function payLinkStatus(
  link: { status: 'open' | 'paid'; expires_at: string },
  now: Date,
): 'open' | 'paid' | 'expired' {
  if (link.status === 'paid') return 'paid';
  return link.expires_at <= isoInstant(now) ? 'expired' : 'open';
}

/**
 * A paid link as the pay button sees it, given the status of the payment made through it: a bank payment still
 * waiting for the bank is `pending`, and one the bank refused `declined`; neither is money the merchant has.
 */
export function paidLinkOutcome(
  status: ReturnType<typeof payLinkStatus>,
  paymentStatus: string | undefined,
): ReturnType<typeof payLinkStatus> | 'pending' | 'declined' {
  if (status !== 'paid') return status;
  return paymentStatus === 'pending' ? 'pending' : paymentStatus === 'declined' ? 'declined' : 'paid';
}
