/**
 * The one HTTP client of the elements: the widget API of docs/widget-api.md. Public-key calls carry the key
 * in the path; the table's calls (its listing, in transactions-table.ts, and the console's) carry a session token.
 * Every failure is a WidgetApiError whose message a person can act on.
 */
import type { ResolvedConfig } from './config.ts';
import { refusalOf, watchPolicy } from './shared/csp.ts';
import { codeForStatus, WidgetError, type WidgetErrorCode } from './shared/errors.ts';
import type {
  ConsoleUndoAnswer,
  WidgetLinkStatusAnswer,
  WidgetPayLinkAnswer,
  WidgetPayLinkBody,
  WidgetPaymentRequestAnswer,
  WidgetPaymentRequestBody,
  WidgetSettingsAnswer,
  WidgetTransactionsAnswer,
  WidgetTransactionsQuery,
} from '../contract/wire-types.ts';

// The wire's types come from the service's schemas (contract/wire-types.ts is generated from them), so the
// elements and the service cannot disagree about a field.
export type WidgetSettings = WidgetSettingsAnswer['data'];
export type PayLinkRequest = WidgetPayLinkBody;
export type PayLink = WidgetPayLinkAnswer['data'];
export type PayLinkState = WidgetLinkStatusAnswer['data'];
export type PaymentRequest = WidgetPaymentRequestBody;
export type PaymentRequestSent = WidgetPaymentRequestAnswer['data'];
/** A page of the console's listing, with what the session token allows (its `features`). */
export type TransactionPage = WidgetTransactionsAnswer['data'];
/** One row: a sale, refund, void or ACH return, or a hold (`preauth`, listed with `kind=hold`). */
export type TransactionItem = TransactionPage['items'][number];
/** What a session token lets the console do; all false is read-only. */
export type ConsoleFeatures = TransactionPage['features'];
/** The filters as text: the table checks their values itself, and sends none the service would refuse. */
export type TransactionQuery = Omit<
  WidgetTransactionsQuery,
  'q' | 'status' | 'kind' | 'card_brand' | 'sort' | 'order'
> & {
  q?: string;
  status?: string;
  kind?: string;
  card_brand?: string;
  sort?: string;
  order?: string;
};

/** A transaction with what happened to it, oldest first, and its refunds; after `undo`, whether it was voided or refunded. */
export type TransactionDetails = Omit<ConsoleUndoAnswer['data'], 'undone_as'> &
  Partial<Pick<ConsoleUndoAnswer['data'], 'undone_as'>>;
/** The console's actions, each a path under the transaction's. */
export type TransactionAction = 'refund' | 'void' | 'capture' | 'release' | 'undo' | 'receipt';

/** Any failed call: `status` is the HTTP status, or 0 when no answer arrived; `code` says what to do about it. */
export class WidgetApiError extends WidgetError {
  override name = 'WidgetApiError';
  readonly status: number;

  constructor(message: string, status: number, code?: WidgetErrorCode) {
    super(message, code ?? codeForStatus(status));
    this.status = status;
  }
}

/**
 * The service could not be reached (offline, refused, blocked by CORS, timed out): code `network`, or `csp` when
 * the page's Content-Security-Policy refused the call, and then the message names the directive to add.
 */
export class WidgetNetworkError extends WidgetApiError {
  override name = 'WidgetNetworkError';
  constructor(message: string, code: 'network' | 'csp' = 'network') {
    super(message, 0, code);
  }
}

/** 401: the session token is missing, expired or not valid; the page's server can mint a new one. */
export class WidgetAuthError extends WidgetApiError {
  override name = 'WidgetAuthError';
}

/** 429: too many calls; `retryAfter` in seconds when the service said. */
export class WidgetRateLimitError extends WidgetApiError {
  override name = 'WidgetRateLimitError';
  readonly retryAfter: number | null;

  constructor(message: string, retryAfter: number | null, code?: WidgetErrorCode) {
    super(message, 429, code);
    this.retryAfter = retryAfter;
  }
}

/**
 * One call to the service: the answer's `data`, or a WidgetApiError with the service's message. Gives up after
 * 20 seconds; `signal` aborts it (and then the abort is what it throws).
 */
export async function widgetCall<T>(url: string, init: RequestInit = {}): Promise<T> {
  const { signal } = init;
  // One controller for both reasons to stop, without AbortSignal.any and AbortSignal.timeout (beyond the browser floor).
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 20_000);
  const abort = () => controller.abort(signal!.reason);
  if (signal?.aborted) abort();
  signal?.addEventListener('abort', abort);
  watchPolicy();
  try {
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal: controller.signal });
    } catch (error) {
      if (signal?.aborted) throw error;
      const refusal = await refusalOf(url, ['connect-src']);
      // The elements show their own text for a plain network failure; this message is for a developer's console.
      throw refusal ? new WidgetNetworkError(refusal.message, 'csp') : new WidgetNetworkError(`No answer from ${url}`);
    }
    const body: { result?: boolean; message?: string; code?: unknown; data?: T } | undefined = await response
      .json()
      .catch(() => undefined);
    const { status } = response;
    if (!response.ok || body?.result === false || body?.data === undefined) {
      const message = body?.message || `The payment service answered ${status}.`;
      // The envelope's own reason when it has one; the status only says it for an answer without (a proxy's page).
      const code =
        typeof body?.code === 'string' && /^[a-z_]{1,40}$/.test(body.code) ? (body.code as WidgetErrorCode) : undefined;
      if (status === 401) throw new WidgetAuthError(message, 401, code);
      if (status === 429)
        throw new WidgetRateLimitError(message, Number(response.headers.get('retry-after')) || null, code);
      throw new WidgetApiError(message, response.ok ? 502 : status, code);
    }
    return body.data;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  }
}

/**
 * A public-key call under `/api/v1/widgets/{public_key}/`: `pay-links` and `payment-requests` (POST, with a
 * body), `pay-links/{link_id}` (GET).
 */
export function publicKeyCall<T>(
  config: ResolvedConfig,
  path: string,
  body?: object,
  signal?: AbortSignal,
): Promise<T> {
  const url = `${config.baseUrl}/api/v1/widgets/${encodeURIComponent(config.publicKey)}/${path}`;
  // A GET without custom headers needs no CORS preflight, so its answer reaches the page even for an unknown key.
  return widgetCall<T>(
    url,
    body
      ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal }
      : { signal },
  );
}

const settingsCache = new Map<string, Promise<WidgetSettings>>();

/** The merchant's widget settings; asked once per page and key. A failure is not remembered: the next element asks again. */
export function getSettings(config: ResolvedConfig): Promise<WidgetSettings> {
  const key = config.baseUrl + config.publicKey;
  let settings = settingsCache.get(key);
  if (!settings) {
    settingsCache.set(key, (settings = publicKeyCall<WidgetSettings>(config, 'settings')));
    settings.catch(() => settingsCache.delete(key));
  }
  return settings;
}

/** Forgets cached settings; for tests. */
export function clearSettingsCache(): void {
  settingsCache.clear();
}
