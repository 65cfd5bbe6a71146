import { html, raw, type Interpolation } from './html.ts';
import { renderPage, type Brand, type Page } from './layout.ts';
import { shopperOrderReference } from '../domain/order-reference.ts';
import {
  RECEIPT_TEXTS,
  receiptDate,
  receiptInstrument,
  receiptMoney,
  receiptNumber,
  type ReceiptLanguage,
  type ReceiptTexts,
} from '../domain/receipt-texts.ts';

/** What a receipt shows of its transaction. */
interface ReceiptTransaction {
  id: string;
  kind: string;
  method: string;
  status: string;
  amount: number;
  refunded_amount: number;
  card_brand: string;
  last_four: string;
  created_at: string;
  order_id: string;
  auth_code: string;
  /** A disputed sale's dispute (docs/disputes.md). */
  dispute_id?: string | null | undefined;
}

/** A receipt: its transaction, the payment it concerns as it stands now (itself, or a refund's original) and that payment's refunds. */
export interface Receipt {
  transaction: ReceiptTransaction;
  payment?: ReceiptTransaction | undefined;
  refunds: ReceiptTransaction[];
  description: string;
  /** Minor units, as the payment's request carried it. */
  tax: number;
  merchantName: string;
  contact: { email: string; phone: string; website: string };
  brand?: Brand | undefined;
}

/** On paper: no header, black on white, the details kept together. */
const PRINT = raw(
  '@media print{header{display:none}body{background:#fff;color:#000}main{max-width:none}.receipt{break-inside:avoid}.receipt-note{display:none}}',
);

/**
 * With scripts on, each date in the reader's own time zone, the zone named; without, UTC, named. The language's
 * Intl formats it, as the server did.
 */
const LOCAL_DATES = raw(
  "for(const t of document.querySelectorAll('time[data-local]'))t.textContent=new Intl.DateTimeFormat(document.documentElement.lang,{dateStyle:'long',timeStyle:'long'}).format(new Date(t.dateTime))",
);

/** The payment as it stands now: paid, refunded in part (how much) or whole, cancelled, or waiting for or declined by the bank. */
function stateOf(p: ReceiptTransaction, texts: ReceiptTexts, language: ReceiptLanguage): string {
  if (p.dispute_id) return texts.states.disputed;
  if (p.status === 'voided') return texts.states.voided;
  if (p.status === 'pending') return texts.states.pending;
  if (p.status === 'declined') return texts.states.declined;
  if (p.refunded_amount >= p.amount) return texts.states.refunded;
  return p.refunded_amount > 0
    ? texts.states.partlyRefunded.replace('{amount}', receiptMoney(p.refunded_amount, language))
    : texts.states.paid;
}

/**
 * The hosted receipt (`/receipts/:token`): merchant and how to reach them, amount, tax and description, card brand and
 * last four (nothing more of a card is kept), auth code, date, receipt number, order and transaction ids, and the
 * payment's state now with its refunds; a refund's or void's receipt names the payment it concerns. In the shopper's
 * language; everything from the merchant or the shopper is escaped by `html`.
 */
export function receiptPage(receipt: Receipt, language: ReceiptLanguage, nonce: string): Page {
  const t = receipt.transaction;
  const texts = RECEIPT_TEXTS[language];
  const kind = t.kind === 'refund' || t.kind === 'void' || t.kind === 'ach_return' ? t.kind : 'sale';
  const money = (minor: number) => receiptMoney(minor, language);
  const when = (iso: string) => html`<time datetime="${iso}" data-local>${receiptDate(iso, language)}</time>`;
  const order = shopperOrderReference(t.order_id);
  const { payment } = receipt;
  const { email, phone, website } = receipt.contact;
  const contact = [email, phone, website].filter(Boolean).join(' · ');
  const row = (term: string, value: Interpolation) => html`<dt>${term}</dt><dd>${value}</dd>
`;
  return renderPage({
    title: texts.title[kind],
    language,
    brand: receipt.brand,
    body: html`<style>${PRINT}</style>
<dl class="receipt">
${row(texts.merchant, receipt.merchantName)}${contact ? row(texts.contact, contact) : ''}${row(texts.amount, money(t.amount))}${
      receipt.tax > 0 && kind === 'sale' ? row(texts.tax, money(receipt.tax)) : ''
    }${receipt.description ? row(texts.description, receipt.description) : ''}${row(
      texts.paidWith,
      receiptInstrument(t, language),
    )}${t.auth_code && kind === 'sale' ? row(texts.authCode, t.auth_code) : ''}${row(texts.date, when(t.created_at))}${
      payment && kind !== 'sale'
        ? row(
            texts.transactionId,
            html`${texts.refundOf.replace('{amount}', money(payment.amount)).replace('{date}', receiptDate(payment.created_at, language))} (<code>${payment.id}</code>)`,
          )
        : ''
    }${payment ? row(texts.state, stateOf(payment, texts, language)) : ''}${
      kind === 'sale' && receipt.refunds.length
        ? row(
            texts.refunds,
            html`<ul>${receipt.refunds.map((r) => html`<li>${money(r.amount)} · ${when(r.created_at)}</li>`)}</ul>`,
          )
        : ''
    }${row(
      texts.receiptNumber,
      receiptNumber(t.id),
    )}${order ? row(texts.orderId, order) : ''}${row(texts.transactionId, html`<code>${t.id}</code>`)}</dl>
<p class="receipt-note">${texts.keep}</p>
<script nonce="${nonce}">${LOCAL_DATES}</script>`,
  });
}
