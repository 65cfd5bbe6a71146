// Each element module defines its tag when imported (guarded: a page may load the script tag and the package both).
export { configure, currentConfig, resolveConfig, PaykitConfigError } from './config.ts';
export type { PaykitConfig, ResolvedConfig } from './config.ts';
export { PayButton, payButtonStrings, type PayMode, type PayButtonStringKey } from './elements/pay-button/pay-button.ts';
export { RequestPaymentButton, requestPaymentButtonStrings, type RequestPaymentButtonStringKey } from './elements/request-payment-button/request-payment-button.ts';
export { TransactionsTable, transactionsTableStrings, type TransactionsTableStringKey } from './elements/transactions-table/transactions-table.ts';
export type { PaySuccessDetail, PaykitErrorDetail, RequestSentDetail, TransactionsLoadDetail, PaykitEventMap } from './shared/events.ts';
export { WidgetApiError, WidgetAuthError, WidgetNetworkError, WidgetRateLimitError } from './widget-api.ts';
export type { PayLink, PayLinkState, PaymentRequestSent, TransactionItem, TransactionPage, WidgetSettings } from './widget-api.ts';

