import type { Store } from '../store/store.ts';
import { orderIdProblem, shopperOrderReference } from '../domain/order-reference.ts';
import type { PaymentRequest } from '../store/payment-requests.ts';
import type { MerchantAccount } from '../store/merchants.ts';
import type { Customer } from '../store/customers.ts';
import type { RequestSource } from '../store/schema.ts';
import type { Decided } from './guarded.ts';
import { conflict, invalid, rateLimited, refusedBecause } from '../domain/refusals.ts';
import { formatAmount, MAX_PAYMENT, overMaximum, parseAmount, positiveAmount } from '../domain/money.ts';
import { isEmail } from '../domain/contact.ts';
import { normalizePhone } from '../../rules/phone.ts';
import { belowMinimumProblem, subtotal } from '../domain/payment-amounts.ts';
import { DEFAULT_MINIMUM_PAYMENT } from '../platform/config.ts';
import { payPath, qrPath } from '../domain/pay-links.ts';
import { newId } from '../platform/secrets.ts';
import { newPayLink } from './pay-link-tokens.ts';
import { isoInstant } from '../domain/instants.ts';

/** Pay links work for seven days (docs/payments.md). */
const PAY_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface PaymentRequestInput {
  amount: string | number;
  order_id: string;
  phone_number?: string | undefined;
  email?: string | undefined;
  name?: string | undefined;
  preauth?: boolean | undefined;
  pass_fee?: boolean | undefined;
  require_3ds?: boolean | undefined;
  allow_card?: boolean | undefined;
  allow_ach?: boolean | undefined;
  invoice_number?: string | undefined;
  sub_merchant_key?: string | undefined;
  discount?: string | number | undefined;
  surcharge?: string | number | undefined;
  tax?: string | number | undefined;
  description?: string | undefined;
}

export interface CreatedRequest {
  request: PaymentRequest;
  payLink: string;
  qrCodeLink: string;
}

function money(field: string, text: string | number | undefined, required: boolean): number {
  if (text === undefined || String(text).trim() === '') {
    if (required) throw invalid(`${field} is required.`);
    return 0;
  }
  if (required) {
    const minor = positiveAmount(field, text);
    if (typeof minor !== 'number') throw invalid(minor.problem);
    return minor;
  }
  const minor = parseAmount(String(text));
  if (minor === null) throw invalid(`${field} must be decimal text with at most two decimals, e.g. "10.50".`);
  return minor;
}

export const orderIdTaken = (orderId: string) =>
  `order_id "${orderId}" was already used for this merchant: order ids are unique.`;

/** Merchants take payments once onboarding is completed (approved). */
export function assertCanTakePayments(merchant: MerchantAccount): void {
  if (merchant.status !== 'completed') {
    throw conflict("The merchant's onboarding is not completed yet, so it cannot take payments.");
  }
}

/** Validates a request as the interface's table says; every amount in minor units. */
function readRequest(input: PaymentRequestInput, minimumPayment: number) {
  const amount = money('amount', input.amount, true);
  if (amount > MAX_PAYMENT) throw invalid(overMaximum('amount'));
  const discount = money('discount', input.discount, false);
  const surcharge = money('surcharge', input.surcharge, false);
  const tax = money('tax', input.tax, false);
  const orderId = input.order_id;
  const orderProblem = orderIdProblem(orderId);
  if (orderProblem) throw invalid(orderProblem);
  const invoice = input.invoice_number?.trim() ?? '';
  if (invoice && !/^[A-Za-z0-9]{1,100}$/.test(invoice))
    throw invalid('invoice_number must be letters and digits only, at most 100.');
  const allowCard = input.allow_card ?? true;
  const allowAch = input.allow_ach ?? true;
  if (!allowCard && !allowAch) throw invalid('allow_card and allow_ach are both false: allow at least one way to pay.');
  const preauth = input.preauth ?? false;
  if (preauth && !allowCard)
    throw invalid('A preauthorization needs a card: allow_card must not be false when preauth is true.');
  const total = subtotal({ amount, discount, surcharge, tax, passFee: false });
  if (total <= 0)
    throw invalid(`The discount leaves nothing to pay: amount - discount + surcharge + tax is ${formatAmount(total)}.`);
  if (total > MAX_PAYMENT) throw invalid(overMaximum('amount - discount + surcharge + tax'));
  const small = belowMinimumProblem(
    discount || surcharge || tax ? 'amount - discount + surcharge + tax' : 'amount',
    total,
    minimumPayment,
  );
  if (small) throw invalid(small);
  const email = input.email?.trim() ?? '';
  if (email && !isEmail(email)) throw invalid(`email "${email}" is not an e-mail address.`);
  const rawPhone = input.phone_number?.trim() ?? '';
  const phone = rawPhone ? normalizePhone(rawPhone) : '';
  if (phone === null)
    throw invalid(`phone_number "${rawPhone}" is not a phone number: send "+" and the country code, or ten digits.`);
  const description = input.description?.trim() ?? '';
  if (description.length > 500) throw invalid('description must be at most 500 characters.');
  return {
    amount,
    discount,
    surcharge,
    tax,
    orderId,
    invoice,
    email,
    phone,
    description,
    name: input.name?.trim().slice(0, 100) ?? '',
    preauth,
    passFee: input.pass_fee ?? false,
    require3ds: input.require_3ds ?? false,
    // A preauthorization is card-only: ACH cannot hold funds without moving them.
    allowCard,
    allowAch: preauth ? false : allowAch,
  };
}

function messageText(
  merchant: MerchantAccount,
  request: PaymentRequest,
  payLink: string,
  channel: 'sms' | 'email',
): string {
  const total = formatAmount(
    subtotal({
      amount: request.amount,
      discount: request.discount,
      surcharge: request.surcharge,
      tax: request.tax,
      passFee: false,
    }),
  );
  if (channel === 'sms') return `${merchant.business_name} asks you to pay $${total}. Pay securely: ${payLink}`;
  const greeting = request.customer_name ? `Hello ${request.customer_name},` : 'Hello,';
  const about = request.description ? ` for ${request.description}` : '';
  const reference = shopperOrderReference(request.order_id);
  return `${greeting}\n\n${merchant.business_name} asks you to pay $${total}${about}${reference ? ` (order ${reference})` : ''}.\n\nPay securely here: ${payLink}\n`;
}

/** A pay link, and its SMS and e-mail where the request names a phone or an address (the messages written with it). */
export async function createPaymentRequest(
  store: Store,
  merchant: MerchantAccount,
  input: PaymentRequestInput,
  options: {
    source: RequestSource;
    customer?: Customer;
    now: Date;
    publicUrl: string;
    textsPerPhonePerHour?: number;
    minimumPayment?: number | undefined;
    /** What the pay page's receipt field starts with (a pay button's `receipt-email`), checked by the caller. */
    receiptEmail?: string | undefined;
  },
): Promise<Decided<CreatedRequest>> {
  assertCanTakePayments(merchant);
  const fields = readRequest(input, options.minimumPayment ?? DEFAULT_MINIMUM_PAYMENT);
  const { customer, now, publicUrl, source, textsPerPhonePerHour } = options;
  if (fields.phone && textsPerPhonePerHour !== undefined) {
    const since = isoInstant(now, -60 * 60 * 1000);
    if ((await store.messages.textsTo(merchant.id, fields.phone, since)) >= textsPerPhonePerHour) {
      throw rateLimited(
        `${fields.phone} was already sent ${textsPerPhonePerHour} texts for this merchant in the last hour: try again later.`,
        3600,
      );
    }
  }
  const { token, key } = newPayLink();
  const request: PaymentRequest = {
    id: newId('lnk_'),
    client_id: merchant.client_id,
    merchant_id: merchant.id,
    customer_id: customer?.id ?? null,
    token_hash: key,
    source,
    order_id: fields.orderId,
    amount: fields.amount,
    discount: fields.discount,
    surcharge: fields.surcharge,
    tax: fields.tax,
    description: fields.description,
    invoice_number: fields.invoice,
    customer_name: fields.name || (customer ? `${customer.first_name} ${customer.last_name}` : ''),
    email: fields.email || (customer?.email ?? ''),
    phone: fields.phone || (customer?.phone ?? ''),
    preauth: fields.preauth ? 1 : 0,
    pass_fee: fields.passFee ? 1 : 0,
    require_3ds: fields.require3ds ? 1 : 0,
    allow_card: fields.allowCard ? 1 : 0,
    allow_ach: fields.allowAch ? 1 : 0,
    sub_merchant_key: input.sub_merchant_key?.trim() || null,
    sales_id: newId('txn_'),
    status: 'open',
    transaction_id: null,
    expires_at: isoInstant(now, PAY_LINK_TTL_MS),
    created_at: isoInstant(now),
    paid_at: null,
    ...(options.receiptEmail ? { receipt_email: options.receiptEmail } : {}),
  };
  const payLink = `${publicUrl}${payPath(token)}`;
  const channels: ['sms' | 'email', string][] = [];
  if (request.phone && source !== 'qr_code') channels.push(['sms', request.phone]);
  if (request.email && source !== 'qr_code') channels.push(['email', request.email]);
  const messages = channels.map(([channel, recipient]) => ({
    id: newId('msg_'),
    client_id: merchant.client_id,
    merchant_id: merchant.id,
    channel,
    recipient,
    body: messageText(merchant, request, payLink, channel),
    pay_link: payLink,
    created_at: isoInstant(now),
  }));
  const order = { merchant_id: merchant.id, order_id: request.order_id, source, created_at: request.created_at };
  return {
    change: {
      // The order id is the merchant's own key for this payment: a second request with it is refused.
      guards: [{ insert: { table: 'merchant_orders', row: order } }],
      rows: [
        { table: 'payment_requests', row: request },
        ...messages.map((row) => ({ table: 'messages' as const, row })),
      ],
      events: [],
      refusal: refusedBecause('conflict', orderIdTaken(request.order_id)),
    },
    result: { request, payLink, qrCodeLink: `${publicUrl}${qrPath(token)}` },
  };
}
