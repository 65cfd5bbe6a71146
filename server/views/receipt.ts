import { html, raw } from './html.ts';
import { renderPage, type Brand, type Page } from './layout.ts';
import { shopperOrderReference } from '../domain/order-reference.ts';
import { RECEIPT_TEXTS, type ReceiptLanguage } from '../domain/receipt-texts.ts';

/** What a receipt shows of its transaction. */
export interface ReceiptTransaction {
  id: string; kind: string; method: string; amount: number; card_brand: string; last_four: string; created_at: string; order_id: string;
}

/** On paper: no header, black on white, the details kept together. */
const PRINT = raw('@media print{header{display:none}body{background:#fff;color:#000}main{max-width:none}.receipt{break-inside:avoid}.receipt-note{display:none}}');

/**
 * The hosted receipt (`/receipts/:token`): merchant, amount, card brand and last four (nothing more of a card is
 * kept), date, order and transaction ids, in the shopper's language. Everything from the merchant or the shopper is
 * escaped by `html`.
 */
export function receiptPage(receipt: { transaction: ReceiptTransaction; merchantName: string; brand?: Brand | undefined }, language: ReceiptLanguage, locale: string): Page {
  const t = receipt.transaction;
  const texts = RECEIPT_TEXTS[language];
  const kind = t.kind === 'refund' ? 'refund' : t.kind === 'void' ? 'void' : 'sale';
  const amount = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(t.amount / 100);
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' }).format(new Date(t.created_at));
  const instrument = t.method === 'ach' ? `${texts.bank} •••• ${t.last_four}` : `${t.card_brand} •••• ${t.last_four}`;
  const order = shopperOrderReference(t.order_id);
  return renderPage({
    title: texts.title[kind],
    language,
    brand: receipt.brand,
    body: html`<style>${PRINT}</style>
<dl class="receipt">
<dt>${texts.merchant}</dt><dd>${receipt.merchantName}</dd>
<dt>${texts.amount}</dt><dd>${amount}</dd>
<dt>${texts.paidWith}</dt><dd>${instrument}</dd>
<dt>${texts.date}</dt><dd><time datetime="${t.created_at}">${date}</time></dd>
${order ? html`<dt>${texts.orderId}</dt><dd>${order}</dd>
` : ''}<dt>${texts.transactionId}</dt><dd><code>${t.id}</code></dd>
</dl>
<p class="receipt-note">${texts.keep}</p>`,
  });
}
