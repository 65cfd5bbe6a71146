import { paykitError } from './errors.ts';
import { Transport, type Envelope, type RequestOptions } from './http.ts';
import { PagedList } from './pages.ts';
import { verifyWebhook } from './webhooks.ts';
import type { PaykitEventType } from './events.ts';
import type {
  CaptureRequest,
  CaptureResult,
  ChargeRequest,
  ChargeResult,
  ClockResult,
  Customer,
  CustomerListOptions,
  CustomerPage,
  CustomerPaymentRequestResult,
  Delivery,
  DeliveryListOptions,
  DeliveryPage,
  HostedOnboarding,
  HostedOnboardingRequest,
  Merchant,
  OnboardingLinkRefresh,
  NewCustomer,
  OnboardingApplication,
  OnboardingResult,
  OnboardingSession,
  OnboardingStatus,
  PaymentRequest,
  PaymentRequestResult,
  QrLinkRequest,
  QrLinkResult,
  RefundRequest,
  Reversal,
  RotateSecretOptions,
  SandboxMessage,
  SandboxPayment,
  SandboxPayResult,
  SettleResult,
  TestWebhookResult,
  Transaction,
  TransactionExportFilters,
  TransactionList,
  TransactionListItem,
  TransactionListOptions,
  UpdateAchRequest,
  UpdatePreauthRequest,
  UpdatePreauthResult,
  VoidPreauthRequest,
  VoidPreauthResult,
  VoidRequest,
  Hold,
  HoldItem,
  HoldListOptions,
  HoldPage,
  ListenedEvents,
  ListenOptions,
  WebhookEndpoint,
  WebhookRegistration,
  WidgetSession,
  WidgetSessionFeatures,
  WidgetSettings,
  WidgetSettingsRequest,
  CustomerListItem,
  DeliverySummary,
  ListTarget,
  Branding,
  BrandingRequest,
  Balance,
  CursorPaging,
  LedgerEntry,
  LedgerEntryPage,
  LedgerExportRange,
  Payout,
  PayoutPage,
  PayoutRun,
  PayoutSettings,
  PayoutSettingsRequest,
  Dispute,
  DisputeEvidence,
  DisputeFile,
  DisputeListItem,
  DisputeListOptions,
  DisputePage,
  SandboxDisputeRequest,
} from './types.ts';

export type PaykitEnvironment = 'sandbox' | 'production';

export interface PaykitClientOptions {
  /** Your client id (HTTP Basic user name). */
  clientId: string;
  /** Your secret key (HTTP Basic password). Keep it on your server. */
  secretKey: string;
  /** Which service to call when `baseUrl` is not given. Default `sandbox` (`http://localhost:4010`). */
  environment?: PaykitEnvironment;
  /** The service's origin, e.g. `https://pay.example.com`; `/api/v1` is appended. Wins over `environment`. */
  baseUrl?: string;
  /** How long one attempt of a call may take, in milliseconds. Default 30000; a call's `timeout` option wins. */
  timeoutMs?: number;
  /**
   * Retries after a network error, a 409 in progress, a 429 or a 5xx, with exponential backoff and jitter, honouring
   * `Retry-After`. Default 2; 0 turns retries off (and with them the Idempotency-Keys the client makes itself).
   */
  maxRetries?: number;
  /**
   * Check every answer against the schema its type comes from, so that a service and a client that differ fail
   * with a `PaykitServiceError` (`code: "unexpected_answer"`) instead of handing on `undefined`. A cheap check. Default:
   * on, unless `NODE_ENV` is `production`.
   */
  validateAnswers?: boolean;
  /** A fetch implementation to use instead of the global one. */
  fetch?: typeof fetch;
}

/** The default origin of each environment; production has none yet and needs `baseUrl`. */
export const ENVIRONMENT_URLS: Readonly<Record<PaykitEnvironment, string | undefined>> = {
  sandbox: 'http://localhost:4010',
  production: undefined,
};

const API_PREFIX = '/api/v1';
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RETRIES = 2;

const segment = (value: string) => encodeURIComponent(value);

/** `data` of an envelope, as the schema of the call says it is. */
function dataOf<T>(envelope: Envelope): T {
  return envelope.data as T;
}

/** The merchant key and the options of a list call, whichever way it was asked for. */
function listTarget<O extends object>(
  target: ListTarget<O>,
  options: O | undefined,
): { merchantKey: string; options: O } {
  if (typeof target === 'string') return { merchantKey: target, options: options ?? ({} as O) };
  const { merchant_key, ...rest } = target as O & { merchant_key: string };
  return { merchantKey: merchant_key, options: { ...(rest as unknown as O), ...options } };
}

function resolveApiUrl(environment: PaykitEnvironment, baseUrl: string | undefined): string {
  if (environment !== 'sandbox' && environment !== 'production') {
    throw new Error(`PaykitClient: environment must be "sandbox" or "production", not ${JSON.stringify(environment)}.`);
  }
  const origin = baseUrl ?? ENVIRONMENT_URLS[environment];
  if (origin === undefined) {
    throw new Error(
      'PaykitClient: production has no default address yet; pass baseUrl, the address of your Paykit service (e.g. "https://pay.example.com").',
    );
  }
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new Error(
      `PaykitClient: baseUrl must be an absolute http(s) URL such as "https://pay.example.com", not ${JSON.stringify(origin)}.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`PaykitClient: baseUrl must use http or https, not ${url.protocol}`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  // A baseUrl that already names the version prefix is taken as it is.
  return `${url.origin}${path.endsWith(API_PREFIX) ? path : path + API_PREFIX}`;
}

function basicAuthorization(clientId: string, secretKey: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(`${clientId}:${secretKey}`)) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/** Merchant onboarding: full submission, the hosted form, status, and approval (sandbox). */
export class MerchantsApi {
  private readonly http: Transport;

  constructor(http: Transport) {
    this.http = http;
  }

  /** GET /merchant: your merchants, newest first. */
  async list(options: RequestOptions = {}): Promise<Merchant[]> {
    return dataOf(await this.http.call({ method: 'GET', path: '/merchant', answer: 'MerchantListAnswer', ...options }));
  }

  /** POST /onboarding: onboard a merchant with the whole application; it then waits for review (`pending`). */
  async onboard(application: OnboardingApplication, options: RequestOptions = {}): Promise<OnboardingResult> {
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: '/onboarding',
        json: application,
        answer: 'OnboardingAnswer',
        ...options,
      }),
    );
  }

  /** GET /auth/create-session: a session token for the hosted onboarding; `publicKey: true` adds your public key. */
  async createSession({
    publicKey,
    ...options
  }: { publicKey?: boolean } & RequestOptions = {}): Promise<OnboardingSession> {
    return dataOf(
      await this.http.call({
        method: 'GET',
        path: '/auth/create-session',
        query: { is_publickey: publicKey ? true : undefined },
        answer: 'CreateSessionAnswer',
        ...options,
      }),
    );
  }

  /** POST /auth/onboarding/{session_token}: a merchant and the link to its hosted form (opened within 15 minutes, by one browser). */
  async startHostedOnboarding(
    sessionToken: string,
    body: HostedOnboardingRequest = {},
    options: RequestOptions = {},
  ): Promise<HostedOnboarding> {
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: `/auth/onboarding/${segment(sessionToken)}`,
        json: body,
        answer: 'HostedOnboardingAnswer',
        ...options,
      }),
    );
  }

  /**
   * POST /auth/onboarding-link: a new link for a merchant still filling in the hosted form (its link expired unopened,
   * or was opened in another browser); the answers it saved carry over, earlier links stop working.
   */
  async refreshOnboardingLink(
    merchantId: string,
    body: OnboardingLinkRefresh = {},
    options: RequestOptions = {},
  ): Promise<HostedOnboarding> {
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: '/auth/onboarding-link',
        json: { merchant_id: merchantId, ...body },
        answer: 'HostedOnboardingAnswer',
        ...options,
      }),
    );
  }

  /** POST /auth/get-onboarding-status: `pending` until the review decides, then `completed` or `declined`. */
  async onboardingStatus(merchantKey: string, options: RequestOptions = {}): Promise<OnboardingStatus> {
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: '/auth/get-onboarding-status',
        json: { merchant_key: merchantKey },
        answer: 'OnboardingStatusAnswer',
        ...options,
      }),
    );
  }

  /** POST /approve-merchant (sandbox only): approve a submitted merchant by its `merchant_id` (m_…), not its key. */
  async approve(merchantId: string, options: RequestOptions = {}): Promise<void> {
    await this.http.call({
      method: 'POST',
      path: '/approve-merchant',
      json: { merchant_id: merchantId },
      answer: 'StatusAnswer',
      ...options,
    });
  }
}

/** A merchant's stored customers. */
export class CustomersApi {
  private readonly http: Transport;

  constructor(http: Transport) {
    this.http = http;
  }

  /** POST /customers/add: store a customer (first and last name, and an e-mail or a phone). */
  async add(customer: NewCustomer, options: RequestOptions = {}): Promise<Customer> {
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: '/customers/add',
        json: customer,
        answer: 'CustomerAnswer',
        ...options,
      }),
    );
  }

  /**
   * GET /customers: the merchant's customers, newest first. `await` it for one page; `for await` over it for every
   * customer.
   */
  list(
    target: ListTarget<CustomerListOptions>,
    listOptions?: CustomerListOptions,
    options: RequestOptions = {},
  ): PagedList<CustomerListItem, CustomerPage> {
    const {
      merchantKey,
      options: { page = 1, perPage, cursor },
    } = listTarget(target, listOptions);
    return new PagedList(
      async (at) => {
        const data: CustomerPage = dataOf(
          await this.http.call({
            method: 'GET',
            path: '/customers',
            query: { merchant_key: merchantKey, page: at.page, perPage, cursor: at.cursor },
            answer: 'CustomerListAnswer',
            ...options,
          }),
        );
        return { page: data, items: data.allList, nextCursor: data.next_cursor };
      },
      { page, cursor },
    );
  }

  /** GET /customers/{customerId}. */
  async get(merchantKey: string, customerId: string, options: RequestOptions = {}): Promise<Customer> {
    return dataOf(
      await this.http.call({
        method: 'GET',
        path: `/customers/${segment(customerId)}`,
        query: { merchant_key: merchantKey },
        answer: 'CustomerAnswer',
        ...options,
      }),
    );
  }

  /** POST /customers/charge/{customerId}: charge the card the customer last paid one of their pay links with. */
  async charge(customerId: string, body: ChargeRequest, options: RequestOptions = {}): Promise<ChargeResult> {
    const answer = await this.http.call({
      method: 'POST',
      path: `/customers/charge/${segment(customerId)}`,
      json: body,
      answer: 'ChargeCustomerAnswer',
      ...options,
    });
    return { transaction_id: answer.transaction_id as string };
  }
}

/** Asking customers to pay: pay links (sent by SMS or e-mail), requests to stored customers, QR links. */
export class PaymentsApi {
  private readonly http: Transport;

  constructor(http: Transport) {
    this.http = http;
  }

  /** POST /requests: a pay link; a `phone_number` or `email` also sends it. `preauth: true` only authorizes. */
  async request(body: PaymentRequest, options: RequestOptions = {}): Promise<PaymentRequestResult> {
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: '/requests',
        json: body,
        answer: 'PaymentRequestAnswer',
        ...options,
      }),
    );
  }

  /** POST /requests/{customerId}: a pay link sent to a stored customer; the card they pay with is saved. */
  async requestFromCustomer(
    customerId: string,
    body: PaymentRequest,
    options: RequestOptions = {},
  ): Promise<CustomerPaymentRequestResult> {
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: `/requests/${segment(customerId)}`,
        json: body,
        answer: 'CustomerRequestAnswer',
        ...options,
      }),
    );
  }

  /** POST /order/api-qr_code_link: a QR code (PNG) of a new pay link. */
  async qrLink(body: QrLinkRequest, options: RequestOptions = {}): Promise<QrLinkResult> {
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: '/order/api-qr_code_link',
        json: body,
        answer: 'QrAnswer',
        ...options,
      }),
    );
  }
}

/** Listing, reading, refunding and voiding transactions. */
export class TransactionsApi {
  private readonly http: Transport;

  constructor(http: Transport) {
    this.http = http;
  }

  /**
   * GET /merchant/transactions: sales, refunds, voids and returns, newest first, with the total count. `await` it for
   * one page; `for await` over it for every transaction.
   */
  list(
    target: ListTarget<TransactionListOptions>,
    listOptions?: TransactionListOptions,
    options: RequestOptions = {},
  ): PagedList<TransactionListItem, TransactionList> {
    const {
      merchantKey,
      options: { from_date, to_date, limit, pageNumber, page, perPage, cursor },
    } = listTarget(target, listOptions);
    return new PagedList(
      async (at) => {
        const answer = await this.http.call({
          method: 'GET',
          path: '/merchant/transactions',
          query: {
            merchant_key: merchantKey,
            from_date,
            to_date,
            limit: perPage ?? limit,
            pageNumber: at.page,
            cursor: at.cursor,
          },
          answer: 'TransactionListAnswer',
          ...options,
        });
        const list: TransactionList = {
          items: answer.data as TransactionListItem[],
          total: answer.total as number,
          next_cursor: answer.next_cursor as string | null,
          has_more: answer.has_more as boolean,
        };
        return { page: list, items: list.items, nextCursor: list.next_cursor };
      },
      { page: page ?? pageNumber ?? 1, cursor },
    );
  }

  /** GET /merchant/transactions/{transaction_id}: the transaction (the interface's one-item array, unwrapped). */
  async get(merchantKey: string, transactionId: string, options: RequestOptions = {}): Promise<Transaction> {
    const answer = await this.http.call({
      method: 'GET',
      path: `/merchant/transactions/${segment(transactionId)}`,
      query: { merchant_key: merchantKey },
      answer: 'TransactionGetAnswer',
      ...options,
    });
    const [item] = answer.data as Transaction[];
    if (!item) throw paykitError(404, `No transaction ${transactionId} for this merchant.`, { body: answer });
    return item;
  }

  /**
   * GET /merchant/transactions/export.csv: every transaction the filter matches (all pages), as CSV text (after a
   * byte-order mark) with the header, types and statuses in `lang`, dates in `tz`, amounts as `lang` writes numbers:
   * what the payments console's export button downloads.
   */
  async exportTransactions(
    merchantKey: string,
    filters: TransactionExportFilters = {},
    options: RequestOptions = {},
  ): Promise<string> {
    return this.http.callText({
      method: 'GET',
      path: '/merchant/transactions/export.csv',
      query: { merchant_key: merchantKey, ...filters },
      accept: 'text/csv',
      ...options,
    });
  }

  /** POST /order/sales-return: refund in part or in full; the refund record (or the void record, rule 1). */
  async refund(body: RefundRequest, options: RequestOptions = {}): Promise<Reversal> {
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: '/order/sales-return',
        json: body,
        answer: 'ReversalAnswer',
        ...options,
      }),
    );
  }

  /** POST /order/sales-void, form-urlencoded as the interface documents: void a sale before it settles. */
  async void(body: VoidRequest, options: RequestOptions = {}): Promise<Reversal> {
    const form = {
      merchant_key: body.merchant_key,
      transaction_id: body.transaction_id,
      sub_merchant_key: body.sub_merchant_key,
      amount: body.amount,
    };
    return dataOf(
      await this.http.call({ method: 'POST', path: '/order/sales-void', form, answer: 'ReversalAnswer', ...options }),
    );
  }
}

/** Preauthorizations (holds) made by paying a `preauth: true` pay link. */
export class PreauthApi {
  private readonly http: Transport;

  constructor(http: Transport) {
    this.http = http;
  }

  /** POST /preauth/capture: charge the amount authorized now, once. */
  async capture(body: CaptureRequest, options: RequestOptions = {}): Promise<CaptureResult> {
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: '/preauth/capture',
        json: body,
        answer: 'CaptureAnswer',
        ...options,
      }),
    );
  }

  /** POST /preauth/update: raise or lower the authorized amount; `last_authorized_amount` must be the current one. */
  async update(body: UpdatePreauthRequest, options: RequestOptions = {}): Promise<UpdatePreauthResult> {
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: '/preauth/update',
        json: body,
        answer: 'UpdatePreauthAnswer',
        ...options,
      }),
    );
  }

  /** GET /preauth/{transaction_id}: a hold, the amount authorized now (what `update` needs) and its state. */
  async get(merchantKey: string, transactionId: string, options: RequestOptions = {}): Promise<Hold> {
    return dataOf(
      await this.http.call({
        method: 'GET',
        path: `/preauth/${segment(transactionId)}`,
        query: { merchant_key: merchantKey },
        answer: 'HoldAnswer',
        ...options,
      }),
    );
  }

  /** GET /preauth: the merchant's holds, newest first; `status` narrows them. `await` for a page, `for await` for all. */
  list(
    target: ListTarget<HoldListOptions>,
    listOptions?: HoldListOptions,
    options: RequestOptions = {},
  ): PagedList<HoldItem, HoldPage> {
    const {
      merchantKey,
      options: { status, page = 1, perPage, cursor },
    } = listTarget(target, listOptions);
    return new PagedList(
      async (at) => {
        const data: HoldPage = dataOf(
          await this.http.call({
            method: 'GET',
            path: '/preauth',
            query: { merchant_key: merchantKey, status, page: at.page, perPage, cursor: at.cursor },
            answer: 'HoldListAnswer',
            ...options,
          }),
        );
        return { page: data, items: data.items, nextCursor: data.next_cursor };
      },
      { page, cursor },
    );
  }

  /** POST /preauth/void: release the hold; it can no longer be captured. */
  async void(body: VoidPreauthRequest, options: RequestOptions = {}): Promise<VoidPreauthResult> {
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: '/preauth/void',
        json: body,
        answer: 'VoidPreauthAnswer',
        ...options,
      }),
    );
  }
}

/**
 * Where a merchant's money goes after the sale (docs/payouts.md): its balance, its payouts with the ledger entries
 * each swept (they add up to its amount), their CSV, the schedule and the bank account.
 */
export class PayoutsApi {
  private readonly http: Transport;

  constructor(http: Transport) {
    this.http = http;
  }

  /** GET /balance: `available` (what the next payout takes; negative is carried forward) and `pending`. */
  async balance(merchantKey: string, options: RequestOptions = {}): Promise<Balance> {
    return dataOf(
      await this.http.call({
        method: 'GET',
        path: '/balance',
        query: { merchant_key: merchantKey },
        answer: 'BalanceAnswer',
        ...options,
      }),
    );
  }

  /** GET /payouts: the merchant's payouts, newest first. `await` for a page, `for await` for every payout. */
  list(
    target: ListTarget<CursorPaging>,
    listOptions?: CursorPaging,
    options: RequestOptions = {},
  ): PagedList<Payout, PayoutPage> {
    const {
      merchantKey,
      options: { perPage, cursor },
    } = listTarget(target, listOptions);
    return new PagedList(
      async (at) => {
        const data: PayoutPage = dataOf(
          await this.http.call({
            method: 'GET',
            path: '/payouts',
            query: { merchant_key: merchantKey, perPage, cursor: at.cursor },
            answer: 'PayoutListAnswer',
            ...options,
          }),
        );
        return { page: data, items: data.items, nextCursor: data.next_cursor };
      },
      { page: 1, cursor },
    );
  }

  /** GET /payouts/{payout_id}. */
  async get(merchantKey: string, payoutId: string, options: RequestOptions = {}): Promise<Payout> {
    return dataOf(
      await this.http.call({
        method: 'GET',
        path: `/payouts/${segment(payoutId)}`,
        query: { merchant_key: merchantKey },
        answer: 'PayoutAnswer',
        ...options,
      }),
    );
  }

  /** GET /payouts/{payout_id}/entries: the entries the payout swept, newest first; `for await` for all of them. */
  entries(
    merchantKey: string,
    payoutId: string,
    listOptions: CursorPaging = {},
    options: RequestOptions = {},
  ): PagedList<LedgerEntry, LedgerEntryPage> {
    const { perPage, cursor } = listOptions;
    return new PagedList(
      async (at) => {
        const data: LedgerEntryPage = dataOf(
          await this.http.call({
            method: 'GET',
            path: `/payouts/${segment(payoutId)}/entries`,
            query: { merchant_key: merchantKey, perPage, cursor: at.cursor },
            answer: 'PayoutEntriesAnswer',
            ...options,
          }),
        );
        return { page: data, items: data.items, nextCursor: data.next_cursor };
      },
      { page: 1, cursor },
    );
  }

  /** GET /payouts/{payout_id}/entries.csv: the payout's entries as CSV text, one line each. */
  async exportPayout(
    merchantKey: string,
    payoutId: string,
    { lang, ...options }: RequestOptions & { lang?: LedgerExportRange['lang'] } = {},
  ): Promise<string> {
    return this.http.callText({
      method: 'GET',
      path: `/payouts/${segment(payoutId)}/entries.csv`,
      query: { merchant_key: merchantKey, lang },
      accept: 'text/csv',
      ...options,
    });
  }

  /** GET /balance/entries.csv: the entries created in a range of days, as CSV text, paid out or not. */
  async exportEntries(merchantKey: string, range: LedgerExportRange, options: RequestOptions = {}): Promise<string> {
    return this.http.callText({
      method: 'GET',
      path: '/balance/entries.csv',
      query: { merchant_key: merchantKey, ...range },
      accept: 'text/csv',
      ...options,
    });
  }

  /** POST /payouts: pay out the available balance now; for a merchant whose schedule is `manual`. */
  async create(merchantKey: string, options: RequestOptions = {}): Promise<Payout> {
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: '/payouts',
        json: { merchant_key: merchantKey },
        answer: 'PayoutAnswer',
        ...options,
      }),
    );
  }

  /** GET /payouts/settings: the schedule, the bank account (last four) and whether a failed payout paused payouts. */
  async settings(merchantKey: string, options: RequestOptions = {}): Promise<PayoutSettings> {
    return dataOf(
      await this.http.call({
        method: 'GET',
        path: '/payouts/settings',
        query: { merchant_key: merchantKey },
        answer: 'PayoutSettingsAnswer',
        ...options,
      }),
    );
  }

  /** PUT /payouts/settings: change the schedule, or the bank account (which resumes payouts a failed one paused). */
  async updateSettings(body: PayoutSettingsRequest, options: RequestOptions = {}): Promise<PayoutSettings> {
    return dataOf(
      await this.http.call({
        method: 'PUT',
        path: '/payouts/settings',
        json: body,
        answer: 'PayoutSettingsAnswer',
        ...options,
      }),
    );
  }
}

/** Your webhook endpoint, its signing secret and the delivery log. */
/** POST /disputes/{dispute_id}/submit or /accept: the step, its answer the dispute as it stands. */
async function disputeStep(
  http: Transport,
  step: 'submit' | 'accept',
  merchantKey: string,
  disputeId: string,
  options: RequestOptions,
): Promise<Dispute> {
  return dataOf(
    await http.call({
      method: 'POST',
      path: `/disputes/${segment(disputeId)}/${step}`,
      json: { merchant_key: merchantKey },
      answer: 'DisputeAnswer',
      ...options,
    }),
  );
}

/**
 * A merchant's disputes (docs/disputes.md): list and read them, save evidence (as often as needed until it is due),
 * submit it, or accept the dispute.
 */
export class DisputesApi {
  private readonly http: Transport;

  constructor(http: Transport) {
    this.http = http;
  }

  /** GET /disputes: newest first, by `status` or `reason`. `await` for a page, `for await` for every dispute. */
  list(
    target: ListTarget<DisputeListOptions>,
    listOptions?: DisputeListOptions,
    options: RequestOptions = {},
  ): PagedList<DisputeListItem, DisputePage> {
    const {
      merchantKey,
      options: { perPage, cursor, status, reason },
    } = listTarget(target, listOptions);
    return new PagedList(
      async (at) => {
        const data: DisputePage = dataOf(
          await this.http.call({
            method: 'GET',
            path: '/disputes',
            query: { merchant_key: merchantKey, status, reason, perPage, cursor: at.cursor },
            answer: 'DisputeListAnswer',
            ...options,
          }),
        );
        return { page: data, items: data.items, nextCursor: data.next_cursor };
      },
      { page: 1, cursor },
    );
  }

  /** GET /disputes/{dispute_id}: its evidence, files and history. */
  async get(merchantKey: string, disputeId: string, options: RequestOptions = {}): Promise<Dispute> {
    return dataOf(
      await this.http.call({
        method: 'GET',
        path: `/disputes/${segment(disputeId)}`,
        query: { merchant_key: merchantKey },
        answer: 'DisputeAnswer',
        ...options,
      }),
    );
  }

  /** GET /disputes/{dispute_id}/files/{file_id}: an evidence file as uploaded (`content_base64`). */
  async file(
    merchantKey: string,
    disputeId: string,
    fileId: string,
    options: RequestOptions = {},
  ): Promise<DisputeFile> {
    return dataOf(
      await this.http.call({
        method: 'GET',
        path: `/disputes/${segment(disputeId)}/files/${segment(fileId)}`,
        query: { merchant_key: merchantKey },
        answer: 'DisputeFileAnswer',
        ...options,
      }),
    );
  }

  /** POST /disputes/{dispute_id}/evidence: save text fields and add files (PDF, PNG or JPEG, base64). */
  async saveEvidence(
    merchantKey: string,
    disputeId: string,
    evidence: DisputeEvidence,
    options: RequestOptions = {},
  ): Promise<Dispute> {
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: `/disputes/${segment(disputeId)}/evidence`,
        json: { merchant_key: merchantKey, ...evidence },
        answer: 'DisputeAnswer',
        ...options,
      }),
    );
  }

  /** POST /disputes/{dispute_id}/submit: send the evidence saved; the dispute is under review. */
  async submit(merchantKey: string, disputeId: string, options: RequestOptions = {}): Promise<Dispute> {
    return disputeStep(this.http, 'submit', merchantKey, disputeId, options);
  }

  /** POST /disputes/{dispute_id}/accept: concede; the dispute is lost and its money stays withdrawn. */
  async accept(merchantKey: string, disputeId: string, options: RequestOptions = {}): Promise<Dispute> {
    return disputeStep(this.http, 'accept', merchantKey, disputeId, options);
  }
}

export class WebhooksApi {
  private readonly http: Transport;

  constructor(http: Transport) {
    this.http = http;
  }

  /** POST /client/update-webhooks-url: the one URL that receives every event; answers the signing secret. */
  async register(url: string, options: RequestOptions = {}): Promise<WebhookRegistration> {
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: '/client/update-webhooks-url',
        json: { webhook_url: url },
        answer: 'WebhookUrlAnswer',
        ...options,
      }),
    );
  }

  /** GET /client/webhooks: the registration, its secret and whether it is enabled. */
  async get(options: RequestOptions = {}): Promise<WebhookEndpoint> {
    return dataOf(
      await this.http.call({ method: 'GET', path: '/client/webhooks', answer: 'WebhookEndpointAnswer', ...options }),
    );
  }

  /** POST /client/webhooks/rotate-secret: a new secret; the old one also signs for `overlap_hours` (default 24). */
  async rotateSecret(body: RotateSecretOptions = {}, options: RequestOptions = {}): Promise<WebhookEndpoint> {
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: '/client/webhooks/rotate-secret',
        json: body,
        answer: 'WebhookEndpointAnswer',
        ...options,
      }),
    );
  }

  /** GET /client/webhooks/events: the delivery log, newest first. `await` for a page, `for await` for every event. */
  deliveries(
    { status, page = 1, perPage, cursor }: DeliveryListOptions = {},
    options: RequestOptions = {},
  ): PagedList<DeliverySummary, DeliveryPage> {
    return new PagedList(
      async (at) => {
        const data: DeliveryPage = dataOf(
          await this.http.call({
            method: 'GET',
            path: '/client/webhooks/events',
            query: { status, page: at.page, perPage, cursor: at.cursor },
            answer: 'DeliveryListAnswer',
            ...options,
          }),
        );
        return { page: data, items: data.items, nextCursor: data.next_cursor };
      },
      { page, cursor },
    );
  }

  /** GET /client/webhooks/events/{event_id}: one event, its data and every delivery attempt. */
  async delivery(eventId: string, options: RequestOptions = {}): Promise<Delivery> {
    return dataOf(
      await this.http.call({
        method: 'GET',
        path: `/client/webhooks/events/${segment(eventId)}`,
        answer: 'DeliveryAnswer',
        ...options,
      }),
    );
  }

  /** POST /client/webhooks/events/{event_id}/resend: send an event again, from the start of the retry schedule. */
  async resend(eventId: string, options: RequestOptions = {}): Promise<Delivery> {
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: `/client/webhooks/events/${segment(eventId)}/resend`,
        answer: 'DeliveryAnswer',
        ...options,
      }),
    );
  }
}

/** What a merchant's server does for its widgets. */
export class WidgetsApi {
  private readonly http: Transport;

  constructor(http: Transport) {
    this.http = http;
  }

  /**
   * POST /widgets/sessions: a 15-minute token for `<transactions-table session-token>`, read-only unless `features`
   * grants refunds, voids, captures, export or receipts.
   */
  async createSession(
    merchantKey: string,
    { features, ...options }: RequestOptions & { features?: WidgetSessionFeatures } = {},
  ): Promise<WidgetSession> {
    const json = { merchant_key: merchantKey, ...(features ? { features } : {}) };
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: '/widgets/sessions',
        json,
        answer: 'WidgetSessionAnswer',
        ...options,
      }),
    );
  }

  /** PUT /widgets/: button label, colours and the pages allowed to use the widgets; answers all the settings. */
  async updateSettings(body: WidgetSettingsRequest, options: RequestOptions = {}): Promise<WidgetSettings> {
    return dataOf(
      await this.http.call({
        method: 'PUT',
        path: '/widgets/',
        json: body,
        answer: 'WidgetSettingsPutAnswer',
        ...options,
      }),
    );
  }
}

/**
 * The platform's brand on its merchants' hosted pages (pay page, receipt, onboarding form): its name, colour and logo.
 * A merchant's own logo and colour (`widgets.updateSettings`) win over it on that merchant's pages.
 */
export class BrandingApi {
  private readonly http: Transport;

  constructor(http: Transport) {
    this.http = http;
  }

  /** GET /client/branding. */
  async get(options: RequestOptions = {}): Promise<Branding> {
    return dataOf(
      await this.http.call({ method: 'GET', path: '/client/branding', answer: 'ClientBrandingAnswer', ...options }),
    );
  }

  /** PUT /client/branding: `logo` is the PNG, JPEG or WebP file in base64 (at most 200 KB); null removes a field. */
  async update(body: BrandingRequest, options: RequestOptions = {}): Promise<Branding> {
    return dataOf(
      await this.http.call({
        method: 'PUT',
        path: '/client/branding',
        json: body,
        answer: 'ClientBrandingAnswer',
        ...options,
      }),
    );
  }
}

/** Sandbox-only helpers: pay as a customer, move the clock, settle, read the messages sent, decide ACH, listen. */
export class SandboxApi {
  private readonly http: Transport;
  private readonly timeoutMs: number;

  constructor(http: Transport, timeoutMs = DEFAULT_TIMEOUT_MS) {
    this.http = http;
    this.timeoutMs = timeoutMs;
  }

  /** POST /sandbox/pay: pay a pay link (or QR link) as a customer would on the hosted page. */
  async pay(body: SandboxPayment, options: RequestOptions = {}): Promise<SandboxPayResult> {
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: '/sandbox/pay',
        json: body,
        answer: 'SandboxPayAnswer',
        ...options,
      }),
    );
  }

  /** POST /sandbox/clock/advance: move the service's clock forward (24-hour rule, settlement, expiries). */
  async advanceClock(hours: number, options: RequestOptions = {}): Promise<ClockResult> {
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: '/sandbox/clock/advance',
        json: { hours },
        answer: 'ClockAnswer',
        ...options,
      }),
    );
  }

  /** POST /sandbox/settle: close the merchant's batch; every completed, unsettled transaction settles. */
  async settle(merchantKey: string, options: RequestOptions = {}): Promise<SettleResult> {
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: '/sandbox/settle',
        json: { merchant_key: merchantKey },
        answer: 'SettleAnswer',
        ...options,
      }),
    );
  }

  /**
   * POST /sandbox/webhooks/trigger: the service sends one event of `eventType`, with realistic data, to your webhook
   * endpoint, signed and retried as every event is. Name one of your merchants (`m_…`) to see it in the event.
   */
  async triggerWebhook(
    eventType: PaykitEventType,
    options: RequestOptions & { merchantId?: string } = {},
  ): Promise<TestWebhookResult> {
    const { merchantId, ...rest } = options;
    const json = { event_type: eventType, ...(merchantId === undefined ? {} : { merchant_id: merchantId }) };
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: '/sandbox/webhooks/trigger',
        json,
        answer: 'TriggerWebhookAnswer',
        ...rest,
      }),
    );
  }

  /** POST /sandbox/disputes: open a dispute of a completed card sale, as the card holder's bank would. */
  async openDispute(body: SandboxDisputeRequest, options: RequestOptions = {}): Promise<Dispute> {
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: '/sandbox/disputes',
        json: body,
        answer: 'DisputeAnswer',
        ...options,
      }),
    );
  }

  /** POST /sandbox/payouts/run: run the payout schedule now, for your merchants or the one named. */
  async runPayouts(merchantKey?: string, options: RequestOptions = {}): Promise<PayoutRun> {
    const json = merchantKey === undefined ? {} : { merchant_key: merchantKey };
    return dataOf(
      await this.http.call({
        method: 'POST',
        path: '/sandbox/payouts/run',
        json,
        answer: 'PayoutRunAnswer',
        ...options,
      }),
    );
  }

  /**
   * GET /sandbox/events: your events in the order they were written, after `after` (the `cursor` of an earlier
   * answer), waiting up to `wait` seconds for one; without `after`, none and the cursor of now. What `listen()` and
   * `npx paykit listen` read.
   */
  async events({ after, wait }: Partial<ListenOptions> = {}, options: RequestOptions = {}): Promise<ListenedEvents> {
    const timeout = options.timeout ?? Math.max(this.timeoutMs, ((wait ?? 0) + 10) * 1000);
    return dataOf(
      await this.http.call({
        method: 'GET',
        path: '/sandbox/events',
        query: { after, wait },
        answer: 'ListenAnswer',
        ...options,
        timeout,
      }),
    );
  }

  /** GET /sandbox/messages: the SMS and e-mails the service sent, newest first. */
  async messages(options: RequestOptions = {}): Promise<SandboxMessage[]> {
    return dataOf(
      await this.http.call({ method: 'GET', path: '/sandbox/messages', answer: 'MessagesAnswer', ...options }),
    );
  }

  /** POST /update-ach: approve or decline a waiting ACH payment. */
  async updateAch(body: UpdateAchRequest, options: RequestOptions = {}): Promise<void> {
    await this.http.call({ method: 'POST', path: '/update-ach', json: body, ...options });
  }
}

/**
 * The typed client of the Paykit service, for a partner's server. Every call authenticates with HTTP Basic,
 * resolves to the answer's `data`, retries what is safe to retry, and throws a `PaykitError` of its kind on any
 * failure. Lists can be awaited for a page or iterated with `for await` over every item.
 *
 *     const paykit = new PaykitClient({ clientId, secretKey });             // sandbox, http://localhost:4010
 *     const { pay_link } = await paykit.payments.request({ merchant_key, amount: '25.00', order_id: 'o-1' });
 */
export class PaykitClient {
  /** Verifies a webhook delivery and returns its typed event; see `verifyWebhook`. */
  static readonly verifyWebhook = verifyWebhook;

  /** The API's address, ending in `/api/v1`. */
  readonly baseUrl: string;
  readonly merchants: MerchantsApi;
  readonly customers: CustomersApi;
  readonly payments: PaymentsApi;
  readonly transactions: TransactionsApi;
  readonly payouts: PayoutsApi;
  readonly disputes: DisputesApi;
  readonly preauth: PreauthApi;
  readonly webhooks: WebhooksApi;
  readonly widgets: WidgetsApi;
  readonly branding: BrandingApi;
  readonly sandbox: SandboxApi;

  constructor(options: PaykitClientOptions) {
    const {
      clientId,
      secretKey,
      environment = 'sandbox',
      baseUrl,
      timeoutMs = DEFAULT_TIMEOUT_MS,
      maxRetries = DEFAULT_MAX_RETRIES,
      fetch,
      validateAnswers = globalThis.process?.env?.NODE_ENV !== 'production',
    } = options ?? ({} as PaykitClientOptions);
    if (typeof clientId !== 'string' || clientId === '' || clientId.includes(':')) {
      throw new Error(
        'PaykitClient: clientId is required (the client id printed by the test portal or `npm run create-client`).',
      );
    }
    if (typeof secretKey !== 'string' || secretKey === '') throw new Error('PaykitClient: secretKey is required.');
    if (!(Number.isFinite(timeoutMs) && timeoutMs > 0))
      throw new Error(`PaykitClient: timeoutMs must be a positive number of milliseconds, not ${timeoutMs}.`);
    if (!(Number.isInteger(maxRetries) && maxRetries >= 0 && maxRetries <= 10))
      throw new Error(`PaykitClient: maxRetries must be a whole number from 0 to 10, not ${maxRetries}.`);
    this.baseUrl = resolveApiUrl(environment, baseUrl);
    const http = new Transport({
      apiUrl: this.baseUrl,
      authorization: basicAuthorization(clientId, secretKey),
      timeoutMs,
      maxRetries,
      validateAnswers,
      fetch,
    });
    this.merchants = new MerchantsApi(http);
    this.customers = new CustomersApi(http);
    this.payments = new PaymentsApi(http);
    this.transactions = new TransactionsApi(http);
    this.payouts = new PayoutsApi(http);
    this.disputes = new DisputesApi(http);
    this.preauth = new PreauthApi(http);
    this.webhooks = new WebhooksApi(http);
    this.widgets = new WidgetsApi(http);
    this.branding = new BrandingApi(http);
    this.sandbox = new SandboxApi(http, timeoutMs);
  }
}
