import type { RefundReason } from '../domain/refunds.ts';
import type { MerchantState } from '../domain/merchant-review.ts';
import type { CardOutcome } from '../domain/test-cards.ts';
import type { Generated, Kysely } from 'kysely';
import type { EntryType } from '../domain/ledger.ts';
import type { PayoutInterval, PayoutStatus } from '../domain/payouts.ts';
import type { Weekday } from '../domain/business-days.ts';
import type { DisputeReason, DisputeStatus } from '../domain/disputes.ts';
import type { EvidenceFileType } from '../../rules/evidence-files.ts';

/** Timestamps are ISO 8601 UTC text (`isoInstant`, as `toISOString()` writes them), so they sort and compare as text on both databases. */
type Instant = string;

export interface ClientsTable {
  id: string;
  name: string;
  secret_hash: string;
  public_key: string;
  created_at: Instant;
}

export type MerchantStatus = MerchantState;

export interface MerchantsTable {
  id: string;
  client_id: string;
  company_id: string | null;
  status: MerchantStatus;
  business_name: string;
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  website: string;
  /** SHA-256 of the merchant key: the key itself is shown once and never stored. */
  merchant_key_hash: string | null;
  public_key: string;
  /** The onboarding application as JSON, without SSN or full account number (docs/security.md). */
  application: string | null;
  created_at: Instant;
  submitted_at: Instant | null;
  approved_at: Instant | null;
  declined_at: Instant | null;
  /** Why the review declined the application, in words the partner can pass on. */
  decline_reason: string | null;
}

export interface OperatorsTable {
  id: string;
  name: string;
  /** SHA-256 of the operator's bearer token (`op_…`). */
  token_hash: string;
  created_at: Instant;
}

export interface MerchantReviewsTable {
  id: string;
  merchant_id: string;
  decision: 'approved' | 'declined';
  reason: string;
  /** Who decided: an operator's name, `cli:<user>`, or `sandbox` for POST /approve-merchant. */
  reviewer: string;
  decided_at: Instant;
}

interface OnboardingSessionsTable {
  token_hash: string;
  client_id: string;
  expires_at: Instant;
  used_at: Instant | null;
}

interface OnboardingLinksTable {
  token_hash: string;
  merchant_id: string;
  expires_at: Instant;
  used_at: Instant | null;
  /** The hosted form's saved answers (JSON), until the application is submitted. */
  draft: string | null;
  /** The digest of the cookie of the browser that opened the link first; null until it was opened. */
  browser_hash: string | null;
  /** Where a browser holding the ended link is sent for a new one (the partner's), if given. */
  refresh_url: string | null;
}

export interface CustomersTable {
  id: string;
  merchant_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  created_at: Instant;
  /** Insertion order, so pages stay stable when two customers share a timestamp. */
  seq: Generated<number>;
}

/** The outbox: every event is written in the transaction of the change that causes it. */
export interface EventsTable {
  id: string;
  client_id: string;
  event_type: string;
  /** The event's `data` object as JSON text. */
  data: string;
  created_at: Instant;
  seq: Generated<number>;
  /** `pending` until a 2xx answer (`delivered`) or the retries run out (`failed`). */
  delivery_status: Generated<DeliveryStatus>;
  attempts: Generated<number>;
  /** When the dispatcher may try next; '' for at once. */
  next_attempt_at: Generated<Instant>;
  /** A dispatcher holds the event until then; another may take it afterwards (a crashed one never answers). */
  claimed_until: Instant | null;
  delivered_at: Instant | null;
  /** 1 while `data` holds a secret field in clear (see domain/event-secrets.ts). */
  holds_secret: Generated<number>;
  /** PostgreSQL only: the id of the transaction that wrote the event (migration 021); the column is not on SQLite. */
  txid: Generated<string | null>;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookEndpointsTable {
  client_id: string;
  url: string;
  /** `whsec_…`: kept as is, since every delivery is signed with it. */
  secret: string;
  /** After a rotation, the old secret signs too until it expires. */
  previous_secret: string | null;
  previous_secret_expires_at: Instant | null;
  /** Set when the endpoint answered 410 Gone; registering the URL again clears it. */
  disabled_at: Instant | null;
  disabled_reason: string | null;
  created_at: Instant;
  updated_at: Instant;
}

export interface WebhookAttemptsTable {
  seq: Generated<number>;
  event_id: string;
  client_id: string;
  url: string;
  attempted_at: Instant;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export interface Database {
  clients: ClientsTable;
  merchants: MerchantsTable;
  onboarding_sessions: OnboardingSessionsTable;
  onboarding_links: OnboardingLinksTable;
  customers: CustomersTable;
  events: EventsTable;
  payment_requests: PaymentRequestsTable;
  transactions: TransactionsTable;
  payment_methods: PaymentMethodsTable;
  messages: MessagesTable;
  idempotency_keys: IdempotencyKeysTable;
  merchant_orders: MerchantOrdersTable;
  operators: OperatorsTable;
  merchant_reviews: MerchantReviewsTable;
  settings: SettingsTable;
  payment_attempts: PaymentAttemptsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_attempts: WebhookAttemptsTable;
  widget_settings: WidgetSettingsTable;
  brand_logos: BrandLogosTable;
  client_branding: ClientBrandingTable;
  widget_sessions: WidgetSessionsTable;
  receipts: ReceiptsTable;
  transaction_counts: TransactionCountsTable;
  customer_counts: CustomerCountsTable;
  merchant_counts: MerchantCountsTable;
  event_counts: EventCountsTable;
  ledger_entries: LedgerEntriesTable;
  ledger_balances: LedgerBalancesTable;
  payouts: PayoutsTable;
  payout_settings: PayoutSettingsTable;
  disputes: DisputesTable;
  dispute_files: DisputeFilesTable;
}

/**
 * Counters behind the listings' `total`, kept by triggers in the transaction of each write (migration 012); `day` is
 * the UTC date of `created_at`. Read only: nothing in the code writes them.
 */
interface TransactionCountsTable {
  merchant_id: string;
  day: string;
  kind: TransactionKind;
  status: TransactionStatus;
  n: number;
}
interface CustomerCountsTable {
  merchant_id: string;
  n: number;
}
interface MerchantCountsTable {
  status: MerchantStatus;
  n: number;
}
interface EventCountsTable {
  client_id: string;
  delivery_status: DeliveryStatus;
  slot: number;
  n: number;
}

/** What the repositories use of a database handle: the whole database, or a unit of work's (a Kysely transaction). */
export type Executor = Pick<
  Kysely<Database>,
  'selectFrom' | 'insertInto' | 'updateTable' | 'deleteFrom' | 'with' | 'isTransaction' | 'getExecutor'
>;
export type Dialect = 'sqlite' | 'postgres';

export interface PaymentRequestsTable {
  /** The link id (`lnk_…`). */
  id: string;
  client_id: string;
  merchant_id: string;
  customer_id: string | null;
  /** SHA-256 of the pay link's token: the link is a bearer secret. */
  token_hash: string;
  source: RequestSource;
  order_id: string;
  /** Minor units. */
  amount: number;
  discount: number;
  surcharge: number;
  tax: number;
  description: string;
  invoice_number: string;
  customer_name: string;
  email: string;
  phone: string;
  preauth: number;
  pass_fee: number;
  require_3ds: number;
  allow_card: number;
  allow_ach: number;
  sub_merchant_key: string | null;
  /** The id the transaction will have once the link is paid (`sales_id` of the interface). */
  sales_id: string;
  status: 'open' | 'paid';
  transaction_id: string | null;
  expires_at: Instant;
  created_at: Instant;
  paid_at: Instant | null;
  /** The e-mail a pay button passed: the pay page's receipt field starts with it (migration 024). */
  receipt_email?: string | null;
}

/** Where an order came from: the interface's `order_createdfrom`. */
export type RequestSource = 'pay_link' | 'customer_request' | 'qr_code' | 'customer_charge';
export type TransactionKind = 'sale' | 'preauth' | 'refund' | 'void' | 'ach_return';
export type TransactionStatus = 'pending' | 'completed' | 'declined' | 'voided' | 'authorized' | 'captured';

export interface TransactionsTable {
  seq: Generated<number>;
  id: string;
  client_id: string;
  merchant_id: string;
  customer_id: string | null;
  request_id: string | null;
  /** The original of a refund, void or ACH return; the authorization of a captured sale. */
  parent_id: string | null;
  kind: TransactionKind;
  method: 'card' | 'ach';
  status: TransactionStatus;
  source: RequestSource;
  order_id: string;
  /** Minor units, positive; for a preauthorization, the amount currently authorized. */
  amount: number;
  fee_amount: number;
  /** Minor units; negative for refunds, voids and returns. */
  net_amount: number;
  refunded_amount: Generated<number>;
  card_brand: string;
  last_four: string;
  auth_code: string;
  /** The processor's reference: the interface's `txn_id`. */
  gateway_ref: string;
  created_at: Instant;
  completed_at: Instant | null;
  settled_at: Instant | null;
  /** A refund's (or a void's asked for as a refund) reason, and its note (migration 022); null when none was given. */
  refund_reason?: RefundReason | null;
  refund_note?: string | null;
  /** A hold's moves as JSON text (`HoldMove[]`, server/domain/preauth.ts); null for other kinds and older holds. */
  hold_history?: string | null;
  /** The address the shopper gave on the hosted pay page for a receipt (migration 022), beside the request's. */
  receipt_email?: string | null;
  /** The sale's dispute (migration 023): a refund or a void is refused while it is set. */
  dispute_id: Generated<string | null>;
}

export interface PaymentMethodsTable {
  id: string;
  merchant_id: string;
  customer_id: string;
  card_brand: string;
  last_four: string;
  exp_month: number;
  exp_year: number;
  outcome: CardOutcome;
  created_at: Instant;
}

export interface MessagesTable {
  seq: Generated<number>;
  id: string;
  client_id: string;
  merchant_id: string;
  channel: 'sms' | 'email';
  recipient: string;
  body: string;
  pay_link: string;
  created_at: Instant;
}

export interface IdempotencyKeysTable {
  client_id: string;
  /** SHA-256 of the key the client sent. */
  key: string;
  fingerprint: string;
  status_code: number | null;
  /** The first answer, sealed with a key only the client's secret and the idempotency key can derive. */
  body: string | null;
  created_at: Instant;
  /** While the first request runs, its claim lasts until then; a crashed request's claim runs out. */
  locked_until: Instant | null;
}

interface MerchantOrdersTable {
  merchant_id: string;
  order_id: string;
  source: RequestSource;
  created_at: Instant;
}

interface SettingsTable {
  key: string;
  value: string;
}

/** A card payment waiting for its 3-D Secure challenge on the hosted page; no card number is kept. */
export interface PaymentAttemptsTable {
  token_hash: string;
  request_id: string;
  card_brand: string;
  last_four: string;
  exp_month: number;
  exp_year: number;
  outcome: CardOutcome;
  expires_at: Instant;
  used_at: Instant | null;
}

/** What a merchant's widgets show, and the page origins allowed to call the widget API. */
export interface WidgetSettingsTable {
  merchant_id: string;
  button_label: string;
  primary_color: string;
  text_color: string;
  allowed_origins: string;
  /** The merchant's logo (brand_logos.hash), or none. */
  logo_hash: string | null;
  updated_at: Instant;
  /** 1 when shoppers get receipts after payments, refunds and voids (migration 014). */
  receipts_enabled: Generated<number>;
}

/** Logos for the hosted pages, one row per content; `hash` is the SHA-256 of `bytes` in hex (migration 015). */
export interface BrandLogosTable {
  hash: string;
  content_type: string;
  width: number;
  height: number;
  bytes: Buffer;
  created_at: Instant;
}

/** A platform's brand on its merchants' hosted pages; a merchant's own (widget_settings) wins over it. */
export interface ClientBrandingTable {
  client_id: string;
  name: string | null;
  primary_color: string | null;
  logo_hash: string | null;
  updated_at: Instant;
}

/** Tokens for the transactions table, minted by the merchant's server; kept as digests. */
interface WidgetSessionsTable {
  token_hash: string;
  /** `wss_…`, named in the events of actions made through the session; null for sessions made before migration 014. */
  id: string | null;
  merchant_id: string;
  /** The features granted, as a JSON object of booleans (domain/widget-features.ts); `{}` is read-only. */
  features: Generated<string>;
  expires_at: Instant;
  created_at: Instant;
}

/** A hosted receipt page: its bearer token as a digest, the transaction it shows and the shopper's language ('' when unknown). */
export interface ReceiptsTable {
  token_hash: string;
  merchant_id: string;
  transaction_id: string;
  language: string;
  created_at: Instant;
}

/** One movement of a merchant's money (migration 020, domain/ledger.ts); `payout_id` once a payout swept it. */
export interface LedgerEntriesTable {
  seq: Generated<number>;
  merchant_id: string;
  transaction_id: string;
  type: EntryType;
  /** Signed minor units. */
  amount: number;
  /** UTC date; null while an ACH payment waits for its bank. */
  available_on: string | null;
  created_at: Instant;
  payout_id: string | null;
}

/** The sum of a merchant's unswept entries per date, kept by triggers (migration 020). Read only. */
interface LedgerBalancesTable {
  merchant_id: string;
  available_on: string;
  amount: number;
}

export interface PayoutsTable {
  seq: Generated<number>;
  /** `po_…`. */
  id: string;
  client_id: string;
  merchant_id: string;
  /** The date of the scheduled period it pays out; null for a payout the merchant asked for. */
  period: string | null;
  /** Minor units: the sum of its entries. */
  amount: number;
  entry_count: number;
  status: PayoutStatus;
  bank_last_four: string;
  arrival_date: string;
  created_at: Instant;
  updated_at: Instant;
  failure_code: string | null;
  failure_message: string | null;
}

/** A merchant's payout schedule and bank account, once changed from the defaults (daily, the onboarding account). */
export interface PayoutSettingsTable {
  merchant_id: string;
  interval: PayoutInterval;
  weekly_anchor: Weekday;
  /** The account changed to through the API; null: the onboarding application's. */
  bank_last_four: string | null;
  bank_routing_number: string | null;
  /** Set when a payout failed: no payout until the bank account is changed. */
  paused_at: Instant | null;
  updated_at: Instant;
}

/** A dispute of a card sale (migration 023, domain/disputes.ts); one per sale at most. */
export interface DisputesTable {
  seq: Generated<number>;
  /** `dp_…`. */
  id: string;
  client_id: string;
  merchant_id: string;
  transaction_id: string;
  /** Minor units: at most what was not refunded of the sale. */
  amount: number;
  reason: DisputeReason;
  status: DisputeStatus;
  /** 1 once its amount and fee were withdrawn from the balance (an inquiry withdraws nothing). */
  funds_withdrawn: number;
  evidence_due_by: Instant;
  /** The evidence's text fields as a JSON object. */
  evidence: string;
  file_count: number;
  /** Its states as a JSON array of `{ status, at }`, oldest first. */
  history: string;
  submitted_at: Instant | null;
  closed_at: Instant | null;
  created_at: Instant;
  updated_at: Instant;
}

/** An evidence file, with its merchant's data: served to that merchant only. */
export interface DisputeFilesTable {
  /** `df_…`. */
  id: string;
  dispute_id: string;
  merchant_id: string;
  filename: string;
  content_type: EvidenceFileType;
  size: number;
  bytes: Buffer;
  created_at: Instant;
}
