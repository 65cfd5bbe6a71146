/**
 * The one HTTP client of the elements: the widget API of docs/widget-api.md. Public-key calls carry the key
 * in the path; the transactions listing carries a session token. Every failure is a WidgetApiError whose
 * message a person can act on.
 */
import { currentConfig, PaykitConfigError, type ResolvedConfig } from './config.ts';

export interface WidgetSettings {
  merchant_name: string;
  environment: 'sandbox' | 'production' | string;
  button_label: string | null;
  primary_color: string | null;
  text_color: string | null;
}

export interface PayLink {
  link_id: string;
  pay_link: string;
  order_id: string;
  amount: string;
  expires_at: string;
}

export interface PayLinkState {
  link_id: string;
  status: 'open' | 'paid' | 'expired';
  order_id: string;
  amount: string;
  transaction_id: string | null;
}

export interface PaymentRequestSent {
  order_id: string;
  pay_link: string;
}

export interface TransactionItem {
  transaction_id: string;
  created_date: string;
  amount: string;
  /** Decimal text from the service (a number in older answers). */
  net_amount: string | number;
  card_brand: string | null;
  last_four: string | null;
  status: string;
  type: string;
}

export interface TransactionPage {
  items: TransactionItem[];
  page: number;
  perPage: number;
  totalCount: number;
}

export interface TransactionQuery {
  page: number;
  perPage: number;
  from_date?: string | undefined;
  to_date?: string | undefined;
}

/** Any failed call: `status` is the HTTP status, or 0 when no answer arrived. */
export class WidgetApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'WidgetApiError';
  }
}

/** The service could not be reached (offline, refused, blocked by CORS, timed out). */
export class WidgetNetworkError extends WidgetApiError {
  constructor(message: string) {
    super(message, 0);
    this.name = 'WidgetNetworkError';
  }
}

/** 401: the session token is missing, expired or not valid; the page's server can mint a new one. */
export class WidgetAuthError extends WidgetApiError {
  constructor(message: string) {
    super(message, 401);
    this.name = 'WidgetAuthError';
  }
}

/** 429: too many calls; `retryAfter` in seconds when the service said. */
export class WidgetRateLimitError extends WidgetApiError {
  constructor(
    message: string,
    readonly retryAfter: number | null,
  ) {
    super(message, 429);
    this.name = 'WidgetRateLimitError';
  }
}

const TIMEOUT_MS = 20_000;

interface Envelope<T> {
  result?: boolean;
  message?: string;
  data?: T;
}

function withTimeout(signal: AbortSignal | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

async function call<T>(url: string, init: RequestInit & { signal?: AbortSignal | undefined }): Promise<T> {
  let response: Response;
  try {
    response = await globalThis.fetch(url, {
      ...init,
      mode: 'cors',
      credentials: 'omit',
      headers: { accept: 'application/json', ...init.headers },
      signal: withTimeout(init.signal),
    });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    const origin = new URL(url).origin;
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    throw new WidgetNetworkError(
      timedOut
        ? `The payment service at ${origin} did not answer in time. Try again.`
        : `Could not reach the payment service at ${origin}. Check the connection and try again.`,
    );
  }
  let body: Envelope<T> | undefined;
  try {
    body = (await response.json()) as Envelope<T>;
  } catch {
    body = undefined;
  }
  if (!response.ok || !body || body.result === false) {
    const message = body?.message || `The payment service answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`;
    if (response.status === 401) throw new WidgetAuthError(message);
    if (response.status === 429) {
      const retryAfter = Number(response.headers.get('retry-after'));
      throw new WidgetRateLimitError(message, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null);
    }
    throw new WidgetApiError(message, response.ok ? 502 : response.status);
  }
  if (body.data === undefined) throw new WidgetApiError('The payment service answered without data.', 502);
  return body.data;
}

function publicPath(config: ResolvedConfig, rest: string): string {
  return `${config.baseUrl}/api/v1/widgets/${encodeURIComponent(config.publicKey)}/${rest}`;
}

function post<T>(url: string, body: unknown, signal?: AbortSignal): Promise<T> {
  return call<T>(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal });
}

const settingsCache = new Map<string, Promise<WidgetSettings>>();

/** The merchant's widget settings; asked once per page and key. */
export function getSettings(config: ResolvedConfig): Promise<WidgetSettings> {
  const key = `${config.baseUrl} ${config.publicKey}`;
  let settings = settingsCache.get(key);
  if (!settings) {
    settings = call<WidgetSettings>(publicPath(config, 'settings'), { method: 'GET' });
    // A failure is not remembered: the next element on the page asks again.
    settings.catch(() => settingsCache.delete(key));
    settingsCache.set(key, settings);
  }
  return settings;
}

export function createPayLink(
  config: ResolvedConfig,
  body: { amount: string; order_id?: string | undefined; description?: string | undefined },
  signal?: AbortSignal,
): Promise<PayLink> {
  return post<PayLink>(publicPath(config, 'pay-links'), body, signal);
}

export function getPayLink(config: ResolvedConfig, linkId: string, signal?: AbortSignal): Promise<PayLinkState> {
  return call<PayLinkState>(publicPath(config, `pay-links/${encodeURIComponent(linkId)}`), { method: 'GET', signal });
}

export function createPaymentRequest(
  config: ResolvedConfig,
  body: { amount: string; recipient_phone: string; order_id?: string | undefined },
  signal?: AbortSignal,
): Promise<PaymentRequestSent> {
  return post<PaymentRequestSent>(publicPath(config, 'payment-requests'), body, signal);
}

/** One page of the merchant's completed transactions, newest first; the session token is the credential. */
export function listTransactions(baseUrl: string, sessionToken: string, query: TransactionQuery, signal?: AbortSignal): Promise<TransactionPage> {
  const params = new URLSearchParams({ page: String(query.page), perPage: String(query.perPage) });
  if (query.from_date) params.set('from_date', query.from_date);
  if (query.to_date) params.set('to_date', query.to_date);
  return call<TransactionPage>(`${baseUrl}/api/v1/widgets/transactions?${params}`, {
    method: 'GET',
    headers: { authorization: `Bearer ${sessionToken}` },
    signal,
  });
}

/**
 * The service origin alone, for calls that need no public key (the session-token listing): the element's
 * own `base-url`, else configure() or the script tag.
 */
export function resolveServiceOrigin(own?: string | null): string {
  const candidate = own?.trim() || currentConfig().baseUrl;
  if (!candidate) {
    throw new PaykitConfigError('Paykit: no service address. Load the script tag from the service, call configure({ baseUrl }), or set base-url on the element.');
  }
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    throw new PaykitConfigError(`Paykit: base-url must be an absolute URL such as https://pay.example.com, not "${candidate}".`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new PaykitConfigError('Paykit: base-url must use https (or http on localhost).');
  return url.origin;
}

/** Forgets cached settings; for tests. */
export function clearSettingsCache(): void {
  settingsCache.clear();
}
