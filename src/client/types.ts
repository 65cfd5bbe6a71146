/**
 * The request and answer types of every call, taken from the service's own TypeBox schemas so that the client
 * cannot drift from the service. Type-only imports: nothing of the server or of TypeBox is in the built client.
 */
import type { Static } from 'typebox';
import type {
  CreateSessionAnswer, HostedOnboardingAnswer, HostedOnboardingBody, OnboardingAnswer, OnboardingBody, OnboardingStatusAnswer,
} from '../../server/schemas/onboarding.ts';
import type { MerchantListAnswer } from '../../server/schemas/merchants.ts';
import type {
  AddCustomerBody, CustomerAnswer, CustomerListAnswer, CustomerListQuery,
} from '../../server/schemas/customers.ts';
import type {
  CaptureAnswer, CaptureBody, ChargeCustomerAnswer, ChargeCustomerBody, CustomerRequestAnswer, PaymentRequestAnswer,
  PaymentRequestBody, QrAnswer, QrBody, RefundBody, ReversalAnswer, TransactionGetAnswer, TransactionListAnswer,
  TransactionListQuery, UpdatePreauthAnswer, UpdatePreauthBody, VoidBody, VoidPreauthAnswer, VoidPreauthBody,
} from '../../server/schemas/payments.ts';
import type {
  DeliveryAnswer, DeliveryListAnswer, DeliveryQuery, RotateBody, WebhookEndpointAnswer, WebhookUrlAnswer,
} from '../../server/schemas/webhooks.ts';
import type { WidgetSessionAnswer, WidgetSettingsBody, WidgetSettingsPutAnswer } from '../../server/schemas/widgets.ts';
import type {
  ClockAnswer, MessagesAnswer, SandboxPayAnswer, SandboxPayBody, SettleAnswer, UpdateAchBody,
} from '../../server/schemas/sandbox.ts';

type Simplify<T> = { [K in keyof T]: T[K] } & {};

// ── Merchant onboarding ──────────────────────────────────────────────────────────────────────────────────────
/** The full application of POST /onboarding: BankingInfo, BusinessInfo, OwnerInfo, ProcessingInfo. */
export type OnboardingApplication = Static<typeof OnboardingBody>;
export type OnboardingResult = Static<typeof OnboardingAnswer>['data'];
export type Merchant = Static<typeof MerchantListAnswer>['data'][number];
export type OnboardingSession = Static<typeof CreateSessionAnswer>['data'];
/** Body of POST /auth/onboarding/{session_token}: `company_id` and prefilled BusinessInfo, all optional. */
export type HostedOnboardingRequest = Static<typeof HostedOnboardingBody>;
export type HostedOnboarding = Static<typeof HostedOnboardingAnswer>['data'];
export type OnboardingStatus = Static<typeof OnboardingStatusAnswer>['data'];

// ── Customers ────────────────────────────────────────────────────────────────────────────────────────────────
export type NewCustomer = Static<typeof AddCustomerBody>;
export type Customer = Static<typeof CustomerAnswer>['data'];
export type CustomerPage = Static<typeof CustomerListAnswer>['data'];
export type CustomerListItem = CustomerPage['allList'][number];
/** `page` from 1, `perPage` 1–100 (default 20). */
export type CustomerListOptions = Partial<Omit<Static<typeof CustomerListQuery>, 'merchant_key'>>;
/** Body of POST /customers/charge/{customerId}; the interface gives `amount` as a number, decimal text works too. */
export type ChargeRequest = Simplify<Omit<Static<typeof ChargeCustomerBody>, 'amount'> & { amount: number | string }>;
export type ChargeResult = Pick<Static<typeof ChargeCustomerAnswer>, 'transaction_id'>;

// ── Payment collection ───────────────────────────────────────────────────────────────────────────────────────
export type PaymentRequest = Static<typeof PaymentRequestBody>;
export type PaymentRequestResult = Static<typeof PaymentRequestAnswer>['data'];
export type CustomerPaymentRequestResult = Static<typeof CustomerRequestAnswer>['data'];
export type QrLinkRequest = Static<typeof QrBody>;
export type QrLinkResult = Static<typeof QrAnswer>['data'];

// ── Transactions ─────────────────────────────────────────────────────────────────────────────────────────────
/** `from_date`/`to_date` YYYY-MM-DD (inclusive, UTC), `limit` 1–100 (default 20), `pageNumber` from 1. */
export type TransactionListOptions = Simplify<
  Partial<Omit<Static<typeof TransactionListQuery>, 'merchant_key' | 'limit'>> & { limit?: string | number }
>;
export type TransactionListItem = Static<typeof TransactionListAnswer>['data'][number];
export interface TransactionList {
  items: TransactionListItem[];
  /** How many transactions match, over all pages. */
  total: number;
}
/** GET /merchant/transactions/{id} answers an array of one item; the client gives the item. */
export type Transaction = Static<typeof TransactionGetAnswer>['data'][number];
export type RefundRequest = Static<typeof RefundBody>;
export type VoidRequest = Static<typeof VoidBody>;
/** The refund or void record of POST /order/sales-return and /order/sales-void. */
export type Reversal = Static<typeof ReversalAnswer>['data'];

// ── Preauthorizations ────────────────────────────────────────────────────────────────────────────────────────
export type CaptureRequest = Static<typeof CaptureBody>;
export type CaptureResult = Static<typeof CaptureAnswer>['data'];
export type UpdatePreauthRequest = Static<typeof UpdatePreauthBody>;
export type UpdatePreauthResult = Static<typeof UpdatePreauthAnswer>['data'];
export type VoidPreauthRequest = Static<typeof VoidPreauthBody>;
export type VoidPreauthResult = Static<typeof VoidPreauthAnswer>['data'];

// ── Webhooks ─────────────────────────────────────────────────────────────────────────────────────────────────
export type WebhookRegistration = Static<typeof WebhookUrlAnswer>['data'];
export type WebhookEndpoint = Static<typeof WebhookEndpointAnswer>['data'];
/** `overlap_hours` 0–168 (default 24): how long the old secret keeps signing beside the new one. */
export type RotateSecretOptions = Partial<Static<typeof RotateBody>>;
/** `status` pending | delivered | failed, `page` from 1, `perPage` 1–100 (default 20). */
export type DeliveryListOptions = Partial<Static<typeof DeliveryQuery>>;
export type DeliveryPage = Static<typeof DeliveryListAnswer>['data'];
export type DeliverySummary = DeliveryPage['items'][number];
export type Delivery = Static<typeof DeliveryAnswer>['data'];

// ── Widgets ──────────────────────────────────────────────────────────────────────────────────────────────────
export type WidgetSession = Static<typeof WidgetSessionAnswer>['data'];
export type WidgetSettingsRequest = Static<typeof WidgetSettingsBody>;
export type WidgetSettings = Static<typeof WidgetSettingsPutAnswer>['data'];

// ── Sandbox ──────────────────────────────────────────────────────────────────────────────────────────────────
export type SandboxPayment = Static<typeof SandboxPayBody>;
export type SandboxPayResult = Static<typeof SandboxPayAnswer>['data'];
export type ClockResult = Static<typeof ClockAnswer>['data'];
export type SettleResult = Static<typeof SettleAnswer>['data'];
export type SandboxMessage = Static<typeof MessagesAnswer>['data'][number];
export type UpdateAchRequest = Static<typeof UpdateAchBody>;
