/**
 * The request and answer types of every call, taken from the service's own TypeBox schemas so that the client
 * cannot drift from the service: contract/wire-types.ts is generated from server/schemas (`npm run client-types`) and
 * checked against them by test/contract, so the published declarations need neither TypeBox nor server code.
 */
import type * as Schema from '../contract/wire-types.ts';
import type { PaykitEvent } from './events.ts';

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** Which page to start from, and how many items a page holds: the same two names on every list. */
export interface Paging {
  /** From 1. */
  page?: number;
  /** 1–100 (default 20). */
  perPage?: number;
  /** A `next_cursor` from an earlier answer: start from the page after it (it wins over `page`). */
  cursor?: string;
}

/** A merchant's list is asked for by its merchant key, or with the key among the options. */
export type ListTarget<Options> = string | Simplify<Options & { merchant_key: string }>;

// ── Merchant onboarding ──────────────────────────────────────────────────────────────────────────────────────
/** The full application of POST /onboarding: BankingInfo, BusinessInfo, OwnerInfo, ProcessingInfo. */
export type OnboardingApplication = Schema.OnboardingBody;
export type OnboardingResult = Schema.OnboardingAnswer['data'];
export type Merchant = Schema.MerchantListAnswer['data'][number];
export type OnboardingSession = Schema.CreateSessionAnswer['data'];
/** Body of POST /auth/onboarding/{session_token}: `company_id` and prefilled BusinessInfo, all optional. */
export type HostedOnboardingRequest = Schema.HostedOnboardingBody;
export type HostedOnboarding = Schema.HostedOnboardingAnswer['data'];
export type OnboardingLinkRefresh = Omit<Schema.RefreshOnboardingLinkBody, 'merchant_id'>;
export type OnboardingStatus = Schema.OnboardingStatusAnswer['data'];

// ── Customers ────────────────────────────────────────────────────────────────────────────────────────────────
export type NewCustomer = Schema.AddCustomerBody;
export type Customer = Schema.CustomerAnswer['data'];
export type CustomerPage = Schema.CustomerListAnswer['data'];
export type CustomerListItem = CustomerPage['allList'][number];
/** `page` from 1, `perPage` 1–100 (default 20). */
export type CustomerListOptions = Paging;
/** Body of POST /customers/charge/{customerId}; the interface gives `amount` as a number, decimal text works too. */
export type ChargeRequest = Simplify<Omit<Schema.ChargeCustomerBody, 'amount'> & { amount: number | string }>;
export type ChargeResult = Pick<Schema.ChargeCustomerAnswer, 'transaction_id'>;

// ── Payment collection ───────────────────────────────────────────────────────────────────────────────────────
export type PaymentRequest = Schema.PaymentRequestBody;
export type PaymentRequestResult = Schema.PaymentRequestAnswer['data'];
export type CustomerPaymentRequestResult = Schema.CustomerRequestAnswer['data'];
export type QrLinkRequest = Schema.QrBody;
export type QrLinkResult = Schema.QrAnswer['data'];

// ── Transactions ─────────────────────────────────────────────────────────────────────────────────────────────
/**
 * `from_date`/`to_date` YYYY-MM-DD (inclusive, UTC); `page`/`perPage` as on every list, or the interface's own
 * names `pageNumber` (from 1) and `limit` (1–100, default 20).
 */
export type TransactionListOptions = Simplify<
  Partial<Omit<Schema.TransactionListQuery, 'merchant_key' | 'limit'>> & { limit?: string | number } & Paging
>;
export type TransactionListItem = Schema.TransactionListAnswer['data'][number];
export interface TransactionList {
  items: TransactionListItem[];
  /** How many transactions match, over all pages. */
  total: number;
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
  has_more: boolean;
}
/**
 * The payments console's filter and sort (`q`, `status`, `kind`, `card_brand`, `from_date`/`to_date`, `sort`, `order`)
 * and the header row's language (`lang`: en, es, fr or de).
 */
export type TransactionExportFilters = Simplify<Omit<Schema.MerchantExportQuery, 'merchant_key'>>;
/** GET /merchant/transactions/{id} answers an array of one item; the client gives the item. */
export type Transaction = Schema.TransactionGetAnswer['data'][number];
export type RefundRequest = Schema.RefundBody;
export type VoidRequest = Schema.VoidBody;
/** The refund or void record of POST /order/sales-return and /order/sales-void. */
export type Reversal = Schema.ReversalAnswer['data'];

// ── Preauthorizations ────────────────────────────────────────────────────────────────────────────────────────
export type CaptureRequest = Schema.CaptureBody;
export type CaptureResult = Schema.CaptureAnswer['data'];
export type UpdatePreauthRequest = Schema.UpdatePreauthBody;
export type UpdatePreauthResult = Schema.UpdatePreauthAnswer['data'];
export type VoidPreauthRequest = Schema.VoidPreauthBody;
export type VoidPreauthResult = Schema.VoidPreauthAnswer['data'];
export type Hold = Schema.HoldAnswer['data'];
export type HoldListOptions = Simplify<Pick<Partial<Schema.HoldListQuery>, 'status'> & Paging>;
export type HoldItem = HoldPage['items'][number];
export type HoldPage = Schema.HoldListAnswer['data'];

// ── Balance and payouts ──────────────────────────────────────────────────────────────────────────────────────
export type Balance = Schema.BalanceAnswer['data'];
/** `perPage` 1–100 (default 20), `cursor` a `next_cursor` from an earlier page: these lists page by cursor only. */
export type CursorPaging = Omit<Paging, 'page'>;
export type PayoutPage = Schema.PayoutListAnswer['data'];
export type Payout = Schema.PayoutAnswer['data'];
export type LedgerEntryPage = Schema.PayoutEntriesAnswer['data'];
export type LedgerEntry = LedgerEntryPage['items'][number];
export type PayoutSettings = Schema.PayoutSettingsAnswer['data'];
/** The schedule (`interval`, `weekly_anchor`) and/or a new bank account (`routing_number` with `account_number`). */
export type PayoutSettingsRequest = Schema.PayoutSettingsBody;
/** `from_date`/`to_date` YYYY-MM-DD (inclusive, UTC), and the header row's language (`lang`: en, es, fr or de). */
export type LedgerExportRange = Simplify<Omit<Schema.EntriesCsvQuery, 'merchant_key'>>;
export type PayoutRun = Schema.PayoutRunAnswer['data'];

// ── Disputes ─────────────────────────────────────────────────────────────────────────────────────────────────
export type Dispute = Schema.DisputeAnswer['data'];
export type DisputePage = Schema.DisputeListAnswer['data'];
export type DisputeFile = Schema.DisputeFileAnswer['data'];
export type DisputeListItem = DisputePage['items'][number];
/** `status` and `reason` filters, `perPage` 1–100 (default 20), `cursor` a `next_cursor` from an earlier page. */
export type DisputeListOptions = Simplify<Pick<Partial<Schema.DisputeListQuery>, 'status' | 'reason'> & CursorPaging>;
/** Text fields (each replaces what was saved; empty clears it) and files (`filename`, `content_base64`) to add. */
export type DisputeEvidence = Simplify<Omit<Schema.EvidenceBody, 'merchant_key'>>;
/** Body of POST /sandbox/disputes: a completed card sale, the reason, an amount (default the rest), an inquiry. */
export type SandboxDisputeRequest = Schema.SandboxDisputeBody;

// ── Webhooks ─────────────────────────────────────────────────────────────────────────────────────────────────
export type WebhookRegistration = Schema.WebhookUrlAnswer['data'];
export type WebhookEndpoint = Schema.WebhookEndpointAnswer['data'];
/** `overlap_hours` 0–168 (default 24): how long the old secret keeps signing beside the new one. */
export type RotateSecretOptions = Partial<Schema.RotateBody>;
/** `status` pending | delivered | failed, `page` from 1, `perPage` 1–100 (default 20). */
export type DeliveryListOptions = Simplify<Pick<Partial<Schema.DeliveryQuery>, 'status'> & Paging>;
export type DeliveryPage = Schema.DeliveryListAnswer['data'];
export type DeliverySummary = DeliveryPage['items'][number];
export type Delivery = Schema.DeliveryAnswer['data'];

// ── Widgets ──────────────────────────────────────────────────────────────────────────────────────────────────
export type WidgetSession = Schema.WidgetSessionAnswer['data'];
/** What a widget session may do beyond reading: each `false` when not given. */
export type WidgetSessionFeatures = NonNullable<Schema.WidgetSessionBody['features']>;
export type WidgetSettingsRequest = Schema.WidgetSettingsBody;
export type WidgetSettings = Schema.WidgetSettingsPutAnswer['data'];
/** The platform's brand on its merchants' hosted pages: fields not given keep their value, null removes one. */
export type BrandingRequest = Schema.ClientBrandingBody;
export type Branding = Schema.ClientBrandingAnswer['data'];

// ── Sandbox ──────────────────────────────────────────────────────────────────────────────────────────────────
export type SandboxPayment = Schema.SandboxPayBody;
export type SandboxPayResult = Schema.SandboxPayAnswer['data'];
export type ClockResult = Schema.ClockAnswer['data'];
export type SettleResult = Schema.SettleAnswer['data'];
export type SandboxMessage = Schema.MessagesAnswer['data'][number];
export type UpdateAchRequest = Schema.UpdateAchBody;
export type TestWebhookResult = Schema.TriggerWebhookAnswer['data'];
/** `after`: the `cursor` of an earlier answer (none: the cursor of now, at once); `wait`: seconds, 0–25. */
export type ListenOptions = Schema.ListenQuery;
/** Events in the order they were written, typed by `event_type` like a delivery's, and the cursor after them. */
export type ListenedEvents = Omit<Schema.ListenAnswer['data'], 'events'> & {
  events: (Omit<Schema.ListenAnswer['data']['events'][number], 'event_type' | 'data'> & PaykitEvent)[];
};
