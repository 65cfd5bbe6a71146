/**
 * The sandbox's published pricing (docs/payments.md): cards 2.9% + 0.30, ACH 0.8% capped at 5.00.
 * Fees are rounded half up to the cent.
 */
export type PaymentMethod = 'card' | 'ach';

const PRICING = {
  card: { basisPoints: 290, fixedMinor: 30, capMinor: Number.POSITIVE_INFINITY },
  ach: { basisPoints: 80, fixedMinor: 0, capMinor: 500 },
} as const;

export function processingFee(method: PaymentMethod, amountMinor: number): number {
  const { basisPoints, fixedMinor, capMinor } = PRICING[method];
  return Math.min(capMinor, Math.round((amountMinor * basisPoints) / 10_000) + fixedMinor);
}

/** The percentage part of the price as the interface writes it: seven decimals, e.g. "2.9000000". */
export function feePercentage(method: PaymentMethod): string {
  return (PRICING[method].basisPoints / 100).toFixed(7);
}
