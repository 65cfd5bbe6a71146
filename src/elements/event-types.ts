/**
 * The events of the Paykit elements and their details: all bubble and cross shadow roots, so a page can listen anywhere
 * above. Types only, apart from `emit` (events.ts): the minifier chooses its short names by the characters of the
 * source it reads, types included, so types kept out of the script tag's files cannot move their bytes.
 */
import type { PaykitErrorDetail, WidgetErrorCode } from '../shared/errors.ts';
import type { TransactionDetails } from '../widget-api.ts';
import type { DisputeAnswer } from '../../contract/wire-types.ts';

export type { PaykitErrorDetail, WidgetErrorCode };

export interface PaySuccessDetail {
  transaction_id: string | null;
  order_id: string;
  /** Decimal text, e.g. "10.00": what the payer was charged. */
  amount: string;
}

/**
 * A bank (ACH) payment was submitted and waits for the bank, which may still refuse it days later: not money the
 * merchant has. The partner hears the outcome as the `ach.update` webhook.
 */
export type PayPendingDetail = PaySuccessDetail;

export interface RequestSentDetail {
  order_id: string;
  pay_link: string;
}

export interface TransactionsLoadDetail {
  /** How many transactions match, over all pages. */
  total: number;
}

/**
 * What `<transactions-table>` lists, by the listing's query names: `''` is "any" (and, for `sort` and `order`, the
 * defaults `date` and `desc`). A page keeps it in its URL by `new URLSearchParams(detail)`, and gives it back
 * through the table's `filters`.
 */
export interface TransactionFilters {
  q: string;
  status: string;
  kind: string;
  card_brand: string;
  from_date: string;
  to_date: string;
  sort: string;
  order: string;
}

/** An action of `<transactions-table>`'s console succeeded. */
export interface TransactionActionDetail {
  /** The transaction as it now is, with its timeline and refunds (after `undo`, `undone_as` says `void` or `refund`). */
  transaction: TransactionDetails;
  /** Decimal text: the amount asked for a partial refund or capture; absent for the whole. */
  amount?: string;
}

/** A dispute answered in `<transactions-table>`'s dispute panel: the dispute as it now is (`under_review` or `lost`). */
export interface DisputeActionDetail {
  dispute: DisputeAnswer['data'];
}

export interface PaykitEventMap {
  'pay-success': CustomEvent<PaySuccessDetail>;
  'pay-pending': CustomEvent<PayPendingDetail>;
  'pay-error': CustomEvent<PaykitErrorDetail>;
  'pay-cancel': CustomEvent<null>;
  'request-sent': CustomEvent<RequestSentDetail>;
  'request-error': CustomEvent<PaykitErrorDetail>;
  'transactions-load': CustomEvent<TransactionsLoadDetail>;
  'transactions-error': CustomEvent<PaykitErrorDetail>;
  'transactions-filter-change': CustomEvent<TransactionFilters>;
  'transaction-refunded': CustomEvent<TransactionActionDetail>;
  'transaction-voided': CustomEvent<TransactionActionDetail>;
  'transaction-captured': CustomEvent<TransactionActionDetail>;
  'transaction-released': CustomEvent<TransactionActionDetail>;
  'transaction-undone': CustomEvent<TransactionActionDetail>;
  'receipt-sent': CustomEvent<TransactionActionDetail>;
  'dispute-submitted': CustomEvent<DisputeActionDetail>;
  'dispute-accepted': CustomEvent<DisputeActionDetail>;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface HTMLElementEventMap extends PaykitEventMap {}
}
