/**
 * `paykit/client`: the typed client a partner's server uses to call the Paykit service, webhook verification, and
 * `listen` (what `npx paykit listen` runs). Runs on Node 22 and later with nothing but its built-ins.
 */
export {
  PaykitClient,
  ENVIRONMENT_URLS,
  MerchantsApi,
  CustomersApi,
  PaymentsApi,
  TransactionsApi,
  PayoutsApi,
  DisputesApi,
  PreauthApi,
  WebhooksApi,
  WidgetsApi,
  BrandingApi,
  SandboxApi,
} from './client.ts';
export type { PaykitClientOptions, PaykitEnvironment } from './client.ts';
export {
  PaykitAuthenticationError,
  PaykitCardDeclinedError,
  PaykitConflictError,
  PaykitConnectionError,
  PaykitError,
  PaykitIdempotencyError,
  PaykitInvalidRequestError,
  PaykitNotFoundError,
  PaykitPermissionError,
  PaykitRateLimitError,
  PaykitServiceError,
} from './errors.ts';
export type { PaykitErrorCode } from './errors.ts';
export { PagedList } from './pages.ts';
export type { RequestOptions } from './http.ts';
export { signTestWebhook, verifyWebhook, WebhookVerificationError } from './webhooks.ts';
export type { TestWebhookOptions, VerifyWebhookOptions, WebhookHeaders } from './webhooks.ts';
export { listen } from './listen.ts';
export type { Forwarded, ListenedEvent, ListenForwardOptions, Listener } from './listen.ts';
export { PAYKIT_EVENT_TYPES } from './events.ts';
export type * from './events.ts';
export type * from './types.ts';
