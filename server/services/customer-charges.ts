import type { Store } from '../store/store.ts';
import type { MerchantAccount } from '../store/merchants.ts';
import type { Transaction } from '../store/transactions.ts';
import { conflict, declined, invalid, notFound, refusedBecause } from '../domain/refusals.ts';
import { MAX_PAYMENT, overMaximum, positiveAmount } from '../domain/money.ts';
import { processingFee } from '../domain/pricing.ts';
import { DECLINE_MESSAGES } from '../domain/test-cards.ts';
import { newId, newToken } from '../platform/secrets.ts';
import { assertCanTakePayments, orderIdTaken } from './payment-requests.ts';
import { paymentSuccessEvent } from './events.ts';
import { isoInstant } from '../domain/instants.ts';
import { saleEntries } from '../domain/ledger.ts';
import { entryRows } from '../store/ledger.ts';
import { eventRow } from '../store/events.ts';
import type { Decided } from './guarded.ts';
import { orderIdProblem } from '../domain/order-reference.ts';
import { belowMinimumProblem } from '../domain/payment-amounts.ts';
import { DEFAULT_MINIMUM_PAYMENT } from '../platform/config.ts';

const NO_SAVED_CARD =
  'This customer has no saved card yet: send them a payment request (POST /requests/{customerId}); the card they pay with is saved.';

/** POST /customers/charge/{customerId}: charges the card the customer last paid a link of theirs with, once per order id. */
export async function chargeCustomer(
  store: Store,
  merchant: MerchantAccount,
  customerId: string,
  amountValue: string | number,
  orderId: string,
  now: Date,
  minimumPayment = DEFAULT_MINIMUM_PAYMENT,
): Promise<Decided<Transaction> & { shopperReachable: boolean }> {
  assertCanTakePayments(merchant);
  const amount = positiveAmount('amount', amountValue);
  if (typeof amount !== 'number') throw invalid(amount.problem);
  if (amount > MAX_PAYMENT) throw invalid(overMaximum('amount'));
  const small = belowMinimumProblem('amount', amount, minimumPayment);
  if (small) throw invalid(small);
  const order = orderId;
  const orderProblem = orderIdProblem(order);
  if (orderProblem) throw invalid(orderProblem);
  const customer = await store.customers.findById(merchant.id, customerId);
  if (!customer) throw notFound(`No customer ${customerId} for this merchant.`);
  const card = await store.paymentMethods.latestFor(merchant.id, customerId);
  if (!card) throw conflict(NO_SAVED_CARD);
  // Saved cards come from approved payments; their sandbox outcome decides a merchant-initiated charge.
  if (card.outcome === 'card_declined' || card.outcome === 'insufficient_funds')
    throw declined(DECLINE_MESSAGES[card.outcome]);
  const fee = processingFee('card', amount);
  const sale: Transaction = {
    id: newId('txn_'),
    client_id: merchant.client_id,
    merchant_id: merchant.id,
    customer_id: customer.id,
    request_id: null,
    parent_id: null,
    kind: 'sale',
    method: 'card',
    status: 'completed',
    source: 'customer_charge',
    order_id: order,
    amount,
    fee_amount: fee,
    net_amount: amount - fee,
    refunded_amount: 0,
    card_brand: card.card_brand,
    last_four: card.last_four,
    auth_code: newToken('')
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(0, 6)
      .toUpperCase(),
    gateway_ref: newId('gw_'),
    created_at: isoInstant(now),
    completed_at: isoInstant(now),
    settled_at: null,
  };
  return {
    change: {
      // A retried charge must not charge twice: the order id is the merchant's own key for this payment.
      guards: [
        {
          insert: {
            table: 'merchant_orders',
            row: { merchant_id: merchant.id, order_id: order, source: 'customer_charge', created_at: sale.created_at },
          },
        },
      ],
      rows: [{ table: 'transactions', row: sale }, ...entryRows(saleEntries(sale))],
      events: [eventRow(merchant.client_id, 'payment.success', paymentSuccessEvent(sale, null), now)],
      refusal: refusedBecause('conflict', orderIdTaken(order)),
    },
    result: sale,
    // The receipt goes to the phone and address the merchant stored for the customer.
    shopperReachable: Boolean(customer.phone || customer.email),
  };
}
