/** What the pay page shows of a payment request. */
export interface PayRequestView {
  amount: number;
  discount: number;
  surcharge: number;
  tax: number;
  pass_fee: number;
  preauth: number;
  allow_card: number;
  allow_ach: number;
  description: string;
  order_id: string;
  invoice_number: string;
}
import { chargeFor, subtotal, type RequestAmounts } from '../domain/payment-amounts.ts';
import type { PaymentMethod } from '../domain/pricing.ts';
import { html, type Html } from './html.ts';

/** What every hosted pay page knows about the link it is for. */
export interface PayContext {
  request: PayRequestView;
  merchantName: string;
  /** The pay link token: forms post back to its path. */
  token: string;
  /** The opener's origin, already validated, carried through the forms so the outcome can be posted back to it. */
  origin: string | undefined;
  sandbox: boolean;
}

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Minor units as the customer reads them: 1050 → "$10.50". */
export function formatUsd(minorUnits: number): string {
  return USD.format(minorUnits / 100);
}

export function requestAmounts(request: PayRequestView): RequestAmounts {
  return { amount: request.amount, discount: request.discount, surcharge: request.surcharge, tax: request.tax, passFee: request.pass_fee === 1 };
}

/** What the customer pays with this method: the subtotal, plus the method's fee when the merchant passes it on. */
export function totalFor(request: PayRequestView, method: PaymentMethod): number {
  return chargeFor(requestAmounts(request), method).total;
}

export function allowedMethods(request: PayRequestView): PaymentMethod[] {
  return [...(request.allow_card ? ['card' as const] : []), ...(request.allow_ach ? ['ach' as const] : [])];
}

export const METHOD_NAMES = { card: 'card', ach: 'bank account (ACH)' } as const;

function row(label: string, minorUnits: number, total = false): Html {
  return html`<tr${total ? html` class="total"` : ''}><th scope="row">${label}</th><td>${formatUsd(minorUnits)}</td></tr>`;
}

/**
 * The amount and every adjustment that is not zero. A passed-on fee differs by method, so then each allowed
 * method gets its own fee and total row; otherwise one total serves both.
 */
export function amountBreakdown(request: PayRequestView): Html {
  const amounts = requestAmounts(request);
  const adjustments = [
    amounts.discount > 0 && row('Discount', -amounts.discount),
    amounts.surcharge > 0 && row('Surcharge', amounts.surcharge),
    amounts.tax > 0 && row('Tax', amounts.tax),
  ];
  const totals = amounts.passFee
    ? allowedMethods(request).map((method) => {
      const charge = chargeFor(amounts, method);
      return html`${row(method === 'card' ? 'Card processing fee' : 'Bank (ACH) processing fee', charge.passedFee)}${row(`Total by ${METHOD_NAMES[method]}`, charge.total, true)}`;
    })
    : [row('Total', subtotal(amounts), true)];
  return html`<table class="pay-amounts">
<caption>Amount due</caption>
<tbody>
${row('Amount', amounts.amount)}${adjustments}${amounts.passFee && (amounts.discount || amounts.surcharge || amounts.tax) ? row('Subtotal', subtotal(amounts)) : ''}${totals}
</tbody>
</table>`;
}

/** Merchant, description, order and invoice, as on a receipt. */
export function requestDetails({ request, merchantName }: PayContext): Html {
  return html`<dl>
<dt>Merchant</dt><dd>${merchantName}</dd>
${request.description && html`<dt>Description</dt><dd>${request.description}</dd>`}
<dt>Order</dt><dd>${request.order_id}</dd>
${request.invoice_number && html`<dt>Invoice</dt><dd>${request.invoice_number}</dd>`}
</dl>`;
}
