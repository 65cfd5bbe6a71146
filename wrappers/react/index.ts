/**
 * `paykit/react`: React components over the Paykit custom elements, made with `@lit/react`. Each element
 * property is a prop; each event is an `on…` prop whose handler receives the element's typed `CustomEvent`.
 * Importing this module also registers the elements (when there is a DOM), exactly like `import 'paykit'`.
 */
import * as React from 'react';
import { createComponent, type EventName } from '@lit/react';
import {
  PayButton as PayButtonElement,
  RequestPaymentButton as RequestPaymentButtonElement,
  TransactionsTable as TransactionsTableElement,
  type PaykitEventMap,
} from '../../src/index.ts';

export { configure } from '../../src/index.ts';
export type {
  PaykitConfig, PayMode, PaySuccessDetail, PaykitErrorDetail, RequestSentDetail, TransactionsLoadDetail, PaykitEventMap,
} from '../../src/index.ts';
export type { PayButtonElement, RequestPaymentButtonElement, TransactionsTableElement };

/** An event name typed with the event the element dispatches under it (see src/shared/events.ts). */
function event<K extends keyof PaykitEventMap>(name: K): EventName<PaykitEventMap[K]> {
  return name as EventName<PaykitEventMap[K]>;
}

const payButtonEvents = {
  /** `detail`: `{transaction_id, order_id, amount}`. */
  onPaySuccess: event('pay-success'),
  /** `detail`: `{message}`. */
  onPayError: event('pay-error'),
  /** The payer closed the payment window without paying; `detail` is null. */
  onPayCancel: event('pay-cancel'),
};

const requestPaymentButtonEvents = {
  /** `detail`: `{order_id, pay_link}`. */
  onRequestSent: event('request-sent'),
  /** `detail`: `{message}`. */
  onRequestError: event('request-error'),
};

const transactionsTableEvents = {
  /** `detail`: `{total}`. */
  onTransactionsLoad: event('transactions-load'),
  /** `detail`: `{message}`. */
  onTransactionsError: event('transactions-error'),
};

/** `<pay-button>`: creates a pay link for `amount` and opens the hosted pay page. */
export const PayButton = createComponent({
  react: React,
  tagName: 'pay-button',
  elementClass: PayButtonElement,
  events: payButtonEvents,
  displayName: 'PayButton',
});

/** `<request-payment-button>`: texts the payer a pay link. */
export const RequestPaymentButton = createComponent({
  react: React,
  tagName: 'request-payment-button',
  elementClass: RequestPaymentButtonElement,
  events: requestPaymentButtonEvents,
  displayName: 'RequestPaymentButton',
});

/** `<transactions-table>`: the merchant's transactions, read with a session token. */
export const TransactionsTable = createComponent({
  react: React,
  tagName: 'transactions-table',
  elementClass: TransactionsTableElement,
  events: transactionsTableEvents,
  displayName: 'TransactionsTable',
});

export type PayButtonProps = React.ComponentProps<typeof PayButton>;
export type RequestPaymentButtonProps = React.ComponentProps<typeof RequestPaymentButton>;
export type TransactionsTableProps = React.ComponentProps<typeof TransactionsTable>;
