import type { Transaction } from '../store/transactions.ts';
import { toMajorNumber } from '../domain/money.ts';

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

export function preauthEvent(auth: Transaction) {
  return {
    merchant_id: auth.merchant_id,
    guid: auth.id,
    amount: toMajorNumber(auth.amount),
    order_id: auth.order_id,
    customer_id: auth.customer_id ?? 0,
  };
}
