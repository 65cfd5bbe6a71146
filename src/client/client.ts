import { PaykitError } from './errors.ts';
import { Transport, type Envelope, type RequestOptions } from './http.ts';
import { verifyWebhook } from './webhooks.ts';
import type {
  CaptureRequest, CaptureResult, ChargeRequest, ChargeResult, ClockResult, Customer, CustomerListOptions, CustomerPage,
  CustomerPaymentRequestResult, Delivery, DeliveryListOptions, DeliveryPage, HostedOnboarding, HostedOnboardingRequest, Merchant,
  NewCustomer, OnboardingApplication, OnboardingResult, OnboardingSession, OnboardingStatus, PaymentRequest,
  PaymentRequestResult, QrLinkRequest, QrLinkResult, RefundRequest, Reversal, RotateSecretOptions, SandboxMessage,
  SandboxPayment, SandboxPayResult, SettleResult, Transaction, TransactionList, TransactionListItem, TransactionListOptions,
  UpdateAchRequest, UpdatePreauthRequest, UpdatePreauthResult, VoidPreauthRequest, VoidPreauthResult, VoidRequest, Hold, HoldListOptions, HoldPage,
  WebhookEndpoint, WebhookRegistration, WidgetSession, WidgetSettings, WidgetSettingsRequest,
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
  /** How long one call may take, in milliseconds. Default 30000. */
  timeoutMs?: number;
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

const segment = (value: string) => encodeURIComponent(value);

/** `data` of an envelope, as the schema of the call says it is. */
function dataOf<T>(envelope: Envelope): T {
  return envelope.data as T;
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
    throw new Error(`PaykitClient: baseUrl must be an absolute http(s) URL such as "https://pay.example.com", not ${JSON.stringify(origin)}.`);
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
  constructor(private readonly http: Transport) {}

  /** GET /merchant: your merchants, newest first. */
  async list(): Promise<Merchant[]> {
    return dataOf(await this.http.call({ method: 'GET', path: '/merchant' }));
  }

  /** POST /onboarding: onboard a merchant with the whole application; it then waits for review (`pending`). */
  async onboard(application: OnboardingApplication, options: RequestOptions = {}): Promise<OnboardingResult> {
    return dataOf(await this.http.call({ method: 'POST', path: '/onboarding', json: application, ...options }));
  }

  /** GET /auth/create-session: a session token for the hosted onboarding; `publicKey: true` adds your public key. */
  async createSession({ publicKey }: { publicKey?: boolean } = {}): Promise<OnboardingSession> {
    return dataOf(await this.http.call({ method: 'GET', path: '/auth/create-session', query: { is_publickey: publicKey ? true : undefined } }));
  }

  /** POST /auth/onboarding/{session_token}: a merchant and its one-time onboarding link to send it. */
  async startHostedOnboarding(sessionToken: string, body: HostedOnboardingRequest = {}, options: RequestOptions = {}): Promise<HostedOnboarding> {
    return dataOf(await this.http.call({ method: 'POST', path: `/auth/onboarding/${segment(sessionToken)}`, json: body, ...options }));
  }

  /** POST /auth/get-onboarding-status: `pending` until approved, then `completed`. */
  async onboardingStatus(merchantKey: string, options: RequestOptions = {}): Promise<OnboardingStatus> {
    return dataOf(await this.http.call({ method: 'POST', path: '/auth/get-onboarding-status', json: { merchant_key: merchantKey }, ...options }));
  }

  /** POST /approve-merchant (sandbox only): approve a submitted merchant by its `merchant_id` (m_…), not its key. */
  async approve(merchantId: string, options: RequestOptions = {}): Promise<void> {
    await this.http.call({ method: 'POST', path: '/approve-merchant', json: { merchant_id: merchantId }, ...options });
  }
}

/** A merchant's stored customers. */
export class CustomersApi {
  constructor(private readonly http: Transport) {}

  /** POST /customers/add: store a customer (first and last name, and an e-mail or a phone). */
  async add(customer: NewCustomer, options: RequestOptions = {}): Promise<Customer> {
    return dataOf(await this.http.call({ method: 'POST', path: '/customers/add', json: customer, ...options }));
  }

  /** GET /customers: one page of the merchant's customers, newest first. */
  async list(merchantKey: string, { page, perPage }: CustomerListOptions = {}): Promise<CustomerPage> {
    return dataOf(await this.http.call({ method: 'GET', path: '/customers', query: { merchant_key: merchantKey, page, perPage } }));
  }

  /** GET /customers/{customerId}. */
  async get(merchantKey: string, customerId: string): Promise<Customer> {
    return dataOf(await this.http.call({ method: 'GET', path: `/customers/${segment(customerId)}`, query: { merchant_key: merchantKey } }));
  }

  /** POST /customers/charge/{customerId}: charge the card the customer last paid one of their pay links with. */
  async charge(customerId: string, body: ChargeRequest, options: RequestOptions = {}): Promise<ChargeResult> {
    const answer = await this.http.call({ method: 'POST', path: `/customers/charge/${segment(customerId)}`, json: body, ...options });
    return { transaction_id: answer.transaction_id as string };
  }
}

/** Asking customers to pay: pay links (sent by SMS or e-mail), requests to stored customers, QR links. */
export class PaymentsApi {
  constructor(private readonly http: Transport) {}

  /** POST /requests: a pay link; a `phone_number` or `email` also sends it. `preauth: true` only authorizes. */
  async request(body: PaymentRequest, options: RequestOptions = {}): Promise<PaymentRequestResult> {
    return dataOf(await this.http.call({ method: 'POST', path: '/requests', json: body, ...options }));
  }

  /** POST /requests/{customerId}: a pay link sent to a stored customer; the card they pay with is saved. */
  async requestFromCustomer(customerId: string, body: PaymentRequest, options: RequestOptions = {}): Promise<CustomerPaymentRequestResult> {
    return dataOf(await this.http.call({ method: 'POST', path: `/requests/${segment(customerId)}`, json: body, ...options }));
  }

  /** POST /order/api-qr_code_link: a QR code (PNG) of a new pay link. */
  async qrLink(body: QrLinkRequest, options: RequestOptions = {}): Promise<QrLinkResult> {
    return dataOf(await this.http.call({ method: 'POST', path: '/order/api-qr_code_link', json: body, ...options }));
  }
}

/** Listing, reading, refunding and voiding transactions. */
export class TransactionsApi {
  constructor(private readonly http: Transport) {}

  /** GET /merchant/transactions: sales, refunds, voids and returns, newest first, with the total count. */
  async list(merchantKey: string, { from_date, to_date, limit, pageNumber }: TransactionListOptions = {}): Promise<TransactionList> {
    const answer = await this.http.call({
      method: 'GET',
      path: '/merchant/transactions',
      query: { merchant_key: merchantKey, from_date, to_date, limit, pageNumber },
    });
    return { items: answer.data as TransactionListItem[], total: answer.total as number };
  }

  /** GET /merchant/transactions/{transaction_id}: the transaction (the interface's one-item array, unwrapped). */
  async get(merchantKey: string, transactionId: string): Promise<Transaction> {
    const answer = await this.http.call({ method: 'GET', path: `/merchant/transactions/${segment(transactionId)}`, query: { merchant_key: merchantKey } });
    const [item] = answer.data as Transaction[];
    if (!item) throw new PaykitError(404, `No transaction ${transactionId} for this merchant.`, { body: answer });
    return item;
  }

  /** POST /order/sales-return: refund in part or in full; the refund record (or the void record, rule 1). */
  async refund(body: RefundRequest, options: RequestOptions = {}): Promise<Reversal> {
    return dataOf(await this.http.call({ method: 'POST', path: '/order/sales-return', json: body, ...options }));
  }

  /** POST /order/sales-void, form-urlencoded as the interface documents: void a sale before it settles. */
  async void(body: VoidRequest, options: RequestOptions = {}): Promise<Reversal> {
    const form = {
      merchant_key: body.merchant_key,
      transaction_id: body.transaction_id,
      sub_merchant_key: body.sub_merchant_key,
      amount: body.amount,
    };
    return dataOf(await this.http.call({ method: 'POST', path: '/order/sales-void', form, ...options }));
  }
}

/** Preauthorizations (holds) made by paying a `preauth: true` pay link. */
export class PreauthApi {
  constructor(private readonly http: Transport) {}

  /** POST /preauth/capture: charge the amount authorized now, once. */
  async capture(body: CaptureRequest, options: RequestOptions = {}): Promise<CaptureResult> {
    return dataOf(await this.http.call({ method: 'POST', path: '/preauth/capture', json: body, ...options }));
  }

  /** POST /preauth/update: raise or lower the authorized amount; `last_authorized_amount` must be the current one. */
  async update(body: UpdatePreauthRequest, options: RequestOptions = {}): Promise<UpdatePreauthResult> {
    return dataOf(await this.http.call({ method: 'POST', path: '/preauth/update', json: body, ...options }));
  }

  /** GET /preauth/{transaction_id}: a hold, the amount authorized now (what `update` needs) and its state. */
  async get(merchantKey: string, transactionId: string): Promise<Hold> {
    return dataOf(await this.http.call({ method: 'GET', path: `/preauth/${segment(transactionId)}`, query: { merchant_key: merchantKey } }));
  }

  /** GET /preauth: the merchant's holds, newest first; `status` narrows them. */
  async list(merchantKey: string, { status, page, perPage }: HoldListOptions = {}): Promise<HoldPage> {
    return dataOf(await this.http.call({ method: 'GET', path: '/preauth', query: { merchant_key: merchantKey, status, page, perPage } }));
  }

  /** POST /preauth/void: release the hold; it can no longer be captured. */
  async void(body: VoidPreauthRequest, options: RequestOptions = {}): Promise<VoidPreauthResult> {
    return dataOf(await this.http.call({ method: 'POST', path: '/preauth/void', json: body, ...options }));
  }
}

/** Your webhook endpoint, its signing secret and the delivery log. */
export class WebhooksApi {
  constructor(private readonly http: Transport) {}

  /** POST /client/update-webhooks-url: the one URL that receives every event; answers the signing secret. */
  async register(url: string, options: RequestOptions = {}): Promise<WebhookRegistration> {
    return dataOf(await this.http.call({ method: 'POST', path: '/client/update-webhooks-url', json: { webhook_url: url }, ...options }));
  }

  /** GET /client/webhooks: the registration, its secret and whether it is enabled. */
  async get(): Promise<WebhookEndpoint> {
    return dataOf(await this.http.call({ method: 'GET', path: '/client/webhooks' }));
  }

  /** POST /client/webhooks/rotate-secret: a new secret; the old one also signs for `overlap_hours` (default 24). */
  async rotateSecret(body: RotateSecretOptions = {}, options: RequestOptions = {}): Promise<WebhookEndpoint> {
    return dataOf(await this.http.call({ method: 'POST', path: '/client/webhooks/rotate-secret', json: body, ...options }));
  }

  /** GET /client/webhooks/events: the delivery log, newest first. */
  async deliveries({ status, page, perPage }: DeliveryListOptions = {}): Promise<DeliveryPage> {
    return dataOf(await this.http.call({ method: 'GET', path: '/client/webhooks/events', query: { status, page, perPage } }));
  }

  /** GET /client/webhooks/events/{event_id}: one event, its data and every delivery attempt. */
  async delivery(eventId: string): Promise<Delivery> {
    return dataOf(await this.http.call({ method: 'GET', path: `/client/webhooks/events/${segment(eventId)}` }));
  }

  /** POST /client/webhooks/events/{event_id}/resend: send an event again, from the start of the retry schedule. */
  async resend(eventId: string, options: RequestOptions = {}): Promise<Delivery> {
    return dataOf(await this.http.call({ method: 'POST', path: `/client/webhooks/events/${segment(eventId)}/resend`, ...options }));
  }
}

/** What a merchant's server does for its widgets. */
export class WidgetsApi {
  constructor(private readonly http: Transport) {}

  /** POST /widgets/sessions: a 15-minute read-only token for `<transactions-table session-token>`. */
  async createSession(merchantKey: string, options: RequestOptions = {}): Promise<WidgetSession> {
    return dataOf(await this.http.call({ method: 'POST', path: '/widgets/sessions', json: { merchant_key: merchantKey }, ...options }));
  }

  /** PUT /widgets/: button label, colours and the pages allowed to use the widgets; answers all the settings. */
  async updateSettings(body: WidgetSettingsRequest): Promise<WidgetSettings> {
    return dataOf(await this.http.call({ method: 'PUT', path: '/widgets/', json: body }));
  }
}

/** Sandbox-only helpers: pay as a customer, move the clock, settle, read the messages sent, decide ACH. */
export class SandboxApi {
  constructor(private readonly http: Transport) {}

  /** POST /sandbox/pay: pay a pay link (or QR link) as a customer would on the hosted page. */
  async pay(body: SandboxPayment, options: RequestOptions = {}): Promise<SandboxPayResult> {
    return dataOf(await this.http.call({ method: 'POST', path: '/sandbox/pay', json: body, ...options }));
  }

  /** POST /sandbox/clock/advance: move the service's clock forward (24-hour rule, settlement, expiries). */
  async advanceClock(hours: number, options: RequestOptions = {}): Promise<ClockResult> {
    return dataOf(await this.http.call({ method: 'POST', path: '/sandbox/clock/advance', json: { hours }, ...options }));
  }

  /** POST /sandbox/settle: close the merchant's batch; every completed, unsettled transaction settles. */
  async settle(merchantKey: string, options: RequestOptions = {}): Promise<SettleResult> {
    return dataOf(await this.http.call({ method: 'POST', path: '/sandbox/settle', json: { merchant_key: merchantKey }, ...options }));
  }

  /** GET /sandbox/messages: the SMS and e-mails the service sent, newest first. */
  async messages(): Promise<SandboxMessage[]> {
    return dataOf(await this.http.call({ method: 'GET', path: '/sandbox/messages' }));
  }

  /** POST /update-ach: approve or decline a waiting ACH payment. */
  async updateAch(body: UpdateAchRequest, options: RequestOptions = {}): Promise<void> {
    await this.http.call({ method: 'POST', path: '/update-ach', json: body, ...options });
  }
}

/**
 * The typed client of the Paykit service, for a partner's server. Every call authenticates with HTTP Basic,
 * resolves to the answer's `data`, and throws `PaykitError` on any failure.
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
  readonly preauth: PreauthApi;
  readonly webhooks: WebhooksApi;
  readonly widgets: WidgetsApi;
  readonly sandbox: SandboxApi;

  constructor(options: PaykitClientOptions) {
    const { clientId, secretKey, environment = 'sandbox', baseUrl, timeoutMs = DEFAULT_TIMEOUT_MS, fetch } = options ?? ({} as PaykitClientOptions);
    if (typeof clientId !== 'string' || clientId === '' || clientId.includes(':')) {
      throw new Error('PaykitClient: clientId is required (the client id printed by the test portal or `npm run create-client`).');
    }
    if (typeof secretKey !== 'string' || secretKey === '') throw new Error('PaykitClient: secretKey is required.');
    if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw new Error(`PaykitClient: timeoutMs must be a positive number of milliseconds, not ${timeoutMs}.`);
    this.baseUrl = resolveApiUrl(environment, baseUrl);
    const http = new Transport(this.baseUrl, basicAuthorization(clientId, secretKey), timeoutMs, fetch);
    this.merchants = new MerchantsApi(http);
    this.customers = new CustomersApi(http);
    this.payments = new PaymentsApi(http);
    this.transactions = new TransactionsApi(http);
    this.preauth = new PreauthApi(http);
    this.webhooks = new WebhooksApi(http);
    this.widgets = new WidgetsApi(http);
    this.sandbox = new SandboxApi(http);
  }
}
