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
import type { PageLocale } from './i18n/language.ts';
import type { Brand } from './layout.ts';
import { shopperOrderReference } from '../domain/order-reference.ts';

/** What every hosted pay page knows about the link it is for. */
export interface PayContext {
  request: PayRequestView;
  merchantName: string;
  /** The pay link token: forms post back to its path. */
  token: string;
  /** The opener's origin, already validated, carried through the forms so the outcome can be posted back to it. */
  origin: string | undefined;
  sandbox: boolean;
  /** The page's language (and the locale of its amounts), carried through the forms like `origin`. */
  lang: PageLocale;
  /** The merchant's brand over its platform's, heading every page of the payment. */
  brand: Brand;
}

const formats = new Map<string, Intl.NumberFormat>();

/** Minor units as the customer reads them: 1050 → "$10.50" (en-US), "10,50 $US" (fr-FR). */
export function formatUsd(minorUnits: number, locale = 'en-US'): string {
  let format = formats.get(locale);
  if (!format) formats.set(locale, (format = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' })));
  return format.format(minorUnits / 100);
}

function requestAmounts(request: PayRequestView): RequestAmounts {
  return {
    amount: request.amount,
    discount: request.discount,
    surcharge: request.surcharge,
    tax: request.tax,
    passFee: request.pass_fee === 1,
  };
}

/** What the customer pays with this method: the subtotal, plus the method's fee when the merchant passes it on. */
export function totalFor(request: PayRequestView, method: PaymentMethod): number {
  return chargeFor(requestAmounts(request), method).total;
}

export function allowedMethods(request: PayRequestView): PaymentMethod[] {
  return [...(request.allow_card ? ['card' as const] : []), ...(request.allow_ach ? ['ach' as const] : [])];
}

/**
 * The amount and every adjustment that is not zero. A passed-on fee differs by method, so then each allowed
 * method gets its own fee and total row; otherwise one total serves both.
 */
export function amountBreakdown({ request, lang }: PayContext): Html {
  const texts = lang.texts.summary;
  const row = (label: string, minorUnits: number, total = false) =>
    html`<tr${total ? html` class="total"` : ''}><th scope="row">${label}</th><td>${formatUsd(minorUnits, lang.locale)}</td></tr>`;
  const amounts = requestAmounts(request);
  const adjustments = [
    amounts.discount > 0 && row(texts.discount, -amounts.discount),
    amounts.surcharge > 0 && row(texts.surcharge, amounts.surcharge),
    amounts.tax > 0 && row(texts.tax, amounts.tax),
  ];
  const totals = amounts.passFee
    ? allowedMethods(request).map((method) => {
        const charge = chargeFor(amounts, method);
        return html`${row(method === 'card' ? texts.cardFee : texts.achFee, charge.passedFee)}${row(method === 'card' ? texts.totalByCard : texts.totalByAch, charge.total, true)}`;
      })
    : [row(texts.total, subtotal(amounts), true)];
  return html`<table class="pay-amounts">
<caption>${texts.amountDue}</caption>
<tbody>
${row(texts.amount, amounts.amount)}${adjustments}${amounts.passFee && (amounts.discount || amounts.surcharge || amounts.tax) ? row(texts.subtotal, subtotal(amounts)) : ''}${totals}
</tbody>
</table>`;
}

/** The order reference as the merchant gave it, as a row of a details list; none when the service made the id. */
export function orderRow({ request, lang }: PayContext): Html {
  const reference = shopperOrderReference(request.order_id);
  return html`${reference && html`<dt>${lang.texts.summary.order}</dt><dd>${reference}</dd>`}`;
}

/** Merchant, description, order and invoice, as on a receipt. */
export function requestDetails(context: PayContext): Html {
  const { request, merchantName, lang } = context;
  const texts = lang.texts.summary;
  return html`<dl>
<dt>${texts.merchant}</dt><dd>${merchantName}</dd>
${request.description && html`<dt>${texts.description}</dt><dd>${request.description}</dd>`}
${orderRow(context)}
${request.invoice_number && html`<dt>${texts.invoice}</dt><dd>${request.invoice_number}</dd>`}
</dl>`;
}
