import type { Transaction } from '../store/transactions.ts';
import { html, raw } from './html.ts';
import { renderPage, type Page } from './layout.ts';
import { RECEIPT_TEXTS, type ReceiptLanguage } from './i18n/receipts.ts';

/** On paper: no header, black on white, the details kept together. */
const PRINT = raw('@media print{header{display:none}body{background:#fff;color:#000}main{max-width:none}.receipt{break-inside:avoid}.receipt-note{display:none}}');

/**
 * The hosted receipt (`/receipts/:token`): merchant, amount, card brand and last four (nothing more of a card is
 * kept), date, order and transaction ids, in the shopper's language. Everything from the merchant or the shopper is
 * escaped by `html`.
 */
export function receiptPage(receipt: { transaction: Transaction; merchantName: string }, language: ReceiptLanguage, locale: string): Page {
  const t = receipt.transaction;
  const texts = RECEIPT_TEXTS[language];
  const kind = t.kind === 'refund' ? 'refund' : t.kind === 'void' ? 'void' : 'sale';
  const amount = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(t.amount / 100);
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' }).format(new Date(t.created_at));
  const instrument = t.method === 'ach' ? `${texts.bank} •••• ${t.last_four}` : `${t.card_brand} •••• ${t.last_four}`;
  return renderPage({
    title: texts.title[kind],
    language,
    body: html`<style>${PRINT}</style>
<dl class="receipt">
<dt>${texts.merchant}</dt><dd>${receipt.merchantName}</dd>
<dt>${texts.amount}</dt><dd>${amount}</dd>
<dt>${texts.paidWith}</dt><dd>${instrument}</dd>
<dt>${texts.date}</dt><dd><time datetime="${t.created_at}">${date}</time></dd>
<dt>${texts.orderId}</dt><dd>${t.order_id}</dd>
<dt>${texts.transactionId}</dt><dd><code>${t.id}</code></dd>
</dl>
<p class="receipt-note">${texts.keep}</p>`,
  });
}
