// Each element's entry defines its tag when imported (guarded: a page may load the script tag and the package both);
// `paykit/pay-button` and its siblings define one element each.
export { configure, currentConfig, resolveConfig, PaykitConfigError } from './config.ts';
export type { PaykitConfig, ResolvedConfig } from './config.ts';
export { PayButton, payButtonStrings, type PayMode, type PayButtonStringKey } from './pay-button.ts';
export {
  RequestPaymentButton,
  requestPaymentButtonStrings,
  type RequestPaymentButtonStringKey,
} from './request-payment-button.ts';
export { TransactionsTable, transactionsTableStrings, type TransactionsTableStringKey } from './transactions-table.ts';
export type {
  PayPendingDetail,
  PaySuccessDetail,
  WidgetErrorCode,
  PaykitErrorDetail,
  RequestSentDetail,
  TransactionActionDetail,
  DisputeActionDetail,
  TransactionFilters,
  TransactionsLoadDetail,
  PaykitEventMap,
} from './elements/events.ts';
export type { Theme } from './elements/paykit-element.ts';
export { WidgetError } from './shared/errors.ts';
export { WidgetApiError, WidgetAuthError, WidgetNetworkError, WidgetRateLimitError } from './widget-api.ts';
export type {
  PayLink,
  PayLinkState,
  PaymentRequestSent,
  TransactionItem,
  TransactionPage,
  WidgetSettings,
} from './widget-api.ts';
