import type { Merchant } from '../store/merchants.ts';
import type { Transaction } from '../store/transactions.ts';
import type { Payout } from '../store/payouts.ts';
import { toMajorNumber } from '../domain/money.ts';
import { isoInstant } from '../domain/instants.ts';

/** The `data` of payment events, with exactly the interface's fields. */
export function paymentSuccessEvent(sale: Transaction, linkId: string | null) {
  return {
    transaction_id: sale.id,
    merchant_id: sale.merchant_id,
    amount: toMajorNumber(sale.amount),
    net_amount: toMajorNumber(sale.net_amount),
    fee_amount: toMajorNumber(sale.fee_amount),
    order_id: sale.order_id,
    last_four: sale.last_four,
    brand: sale.card_brand,
    ...(linkId ? { link_id: linkId } : {}),
  };
}

/** `merchant_status`: the merchant's onboarding status changed (payload decided in docs/decisions.md). */
export function merchantStatusEvent(merchant: Pick<Merchant, 'id' | 'company_id' | 'business_name' | 'email'>, status: 'pending' | 'completed' | 'declined', reason: string, at: Date) {
  return {
    merchant_id: merchant.id,
    company_id: merchant.company_id ?? '',
    business_name: merchant.business_name,
    email: merchant.email,
    status,
    reason,
    changed_at: isoInstant(at),
  };
}

/** `payout.created`, `payout.paid`, `payout.failed`: the payout as it stands (docs/payouts.md). */
export function payoutEvent(payout: Payout) {
  return {
    merchant_id: payout.merchant_id,
    payout_id: payout.id,
    amount: toMajorNumber(payout.amount),
    currency: 'USD' as const,
    status: payout.status,
    arrival_date: payout.arrival_date,
    bank_last_four: payout.bank_last_four,
    entry_count: payout.entry_count,
    created_at: payout.created_at,
    failure_code: payout.failure_code,
    failure_message: payout.failure_message,
  };
}

export function preauthEvent(auth: Transaction) {
  return {
    merchant_id: auth.merchant_id,
    guid: auth.id,
    amount: toMajorNumber(auth.amount),
    order_id: auth.order_id,
    customer_id: auth.customer_id ?? 0,
  };
}
