import { processingFee, type PaymentMethod } from './pricing.ts';
import { formatAmount } from './money.ts';

/** Why a payment of `amount` (minor units, what the shopper pays) is too small for the platform, or null. */
export function belowMinimumProblem(field: string, amount: number, minimum: number): string | null {
  return amount < minimum
    ? `${field} must be at least ${formatAmount(minimum)}: the smallest payment this platform takes, so that no sale goes to its fee.`
    : null;
}

export interface RequestAmounts {
  amount: number;
  discount: number;
  surcharge: number;
  tax: number;
  passFee: boolean;
}

export interface Charge {
  /** What the customer pays. */
  total: number;
  /** What the processor keeps. */
  fee: number;
  /** What the merchant receives. */
  net: number;
  /** The fee added to the customer's total when it is passed on, else 0. */
  passedFee: number;
}

/** Amount less discount plus surcharge and tax; what the request asks for before any fee is passed on. */
export function subtotal({ amount, discount, surcharge, tax }: RequestAmounts): number {
  return amount - discount + surcharge + tax;
}

/**
 * The charge for one payment method. With `pass_fee` the customer also pays the fee on the subtotal, so
 * the merchant receives the subtotal; otherwise the fee comes out of the merchant's share.
 */
export function chargeFor(request: RequestAmounts, method: PaymentMethod): Charge {
  const base = subtotal(request);
  const fee = processingFee(method, base);
  if (request.passFee) return { total: base + fee, fee, net: base, passedFee: fee };
  return { total: base, fee, net: base - fee, passedFee: 0 };
}
