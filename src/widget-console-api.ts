/**
 * The payments console's calls (#32): a transaction's details, the actions on it, the CSV export, and the payouts
 * (#45), each with the session token. Apart from src/widget-api.ts so that only the console's lazily imported module carries them, not
 * every element's first paint. That module imports nothing the elements share (esbuild would split their common chunk
 * in two, which costs every page's first paint ~350 B brotli): the table hands it what it needs, these included.
 */
import type * as Api from './widget-api.ts';
import type { TransactionAction, TransactionDetails, TransactionQuery } from './widget-api.ts';
import type { PayoutEntriesAnswer, WidgetPayoutsAnswer } from '../contract/wire-types.ts';

/** What the calls use of src/widget-api.ts, handed over by the table. */
export type ApiLib = Pick<typeof Api, 'widgetCall' | 'WidgetApiError' | 'WidgetAuthError' | 'WidgetNetworkError'>;

/** The console's calls over `lib`. */
export function consoleCalls({ widgetCall, WidgetApiError, WidgetAuthError, WidgetNetworkError }: ApiLib) {
  const bearer = (sessionToken: string) => ({ authorization: `Bearer ${sessionToken}` });
  const transactionUrl = (baseUrl: string, id: string) =>
    `${baseUrl}/api/v1/widgets/transactions/${encodeURIComponent(id)}`;

  /** One transaction with its timeline and refunds. */
  function getTransaction(baseUrl: string, sessionToken: string, id: string): Promise<TransactionDetails> {
    return widgetCall<TransactionDetails>(transactionUrl(baseUrl, id), { headers: bearer(sessionToken) });
  }

  /**
   * An action on one transaction (each needs its feature in the session, else 403 `forbidden`): `refund` and
   * `capture` take `{ amount }` (decimal text; none for the whole), the others no body. The answer is the
   * transaction as it now is. `key` is its Idempotency-Key: sent again with a retry, the action happens once.
   */
  function actOn(
    baseUrl: string,
    sessionToken: string,
    id: string,
    action: TransactionAction,
    body: { amount?: string },
    key: string,
  ): Promise<TransactionDetails> {
    return widgetCall<TransactionDetails>(`${transactionUrl(baseUrl, id)}/${action}`, {
      method: 'POST',
      headers: { ...bearer(sessionToken), 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });
  }

  /** A file the service makes (a CSV) and its name. A link cannot carry the Bearer header, so it is fetched as a Blob. */
  async function download(url: string, sessionToken: string): Promise<{ blob: Blob; filename: string }> {
    let response: Response;
    try {
      response = await fetch(url, { headers: bearer(sessionToken) });
    } catch {
      throw new WidgetNetworkError(`No answer from ${url}`);
    }
    if (!response.ok) {
      const body: { message?: string } | undefined = await response.json().catch(() => undefined);
      const message = body?.message || `The payment service answered ${response.status}.`;
      throw response.status === 401 ? new WidgetAuthError(message, 401) : new WidgetApiError(message, response.status);
    }
    const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'export.csv';
    return { blob: await response.blob(), filename };
  }

  /** The filtered set as CSV (all pages; the header row in `lang`) and its file name. */
  function exportTransactions(
    baseUrl: string,
    sessionToken: string,
    query: Omit<TransactionQuery, 'page' | 'perPage'> & { lang: string; tz: string },
  ): Promise<{ blob: Blob; filename: string }> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value) params.set(name, String(value));
    return download(`${baseUrl}/api/v1/widgets/transactions/export.csv?${params}`, sessionToken);
  }

  /** Hands a downloaded file to the browser, as a link clicked. */
  function save({ blob, filename }: { blob: Blob; filename: string }): void {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = filename;
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
    // After the click has handed the file over.
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  }

  const paging = ({ perPage, cursor }: { perPage: number; cursor?: string | null | undefined }) =>
    `perPage=${perPage}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  const payoutUrl = (baseUrl: string, id: string) => `${baseUrl}/api/v1/widgets/payouts/${encodeURIComponent(id)}`;

  /** The balance and a page of payouts, newest first (session feature: payouts). */
  function payouts(
    baseUrl: string,
    sessionToken: string,
    page: { perPage: number; cursor?: string | null | undefined },
  ): Promise<WidgetPayoutsAnswer['data']> {
    return widgetCall(`${baseUrl}/api/v1/widgets/payouts?${paging(page)}`, { headers: bearer(sessionToken) });
  }

  /** A page of a payout's entries, newest first. */
  function payoutEntries(
    baseUrl: string,
    sessionToken: string,
    id: string,
    page: { perPage: number; cursor?: string | null | undefined },
  ): Promise<PayoutEntriesAnswer['data']> {
    return widgetCall(`${payoutUrl(baseUrl, id)}/entries?${paging(page)}`, { headers: bearer(sessionToken) });
  }

  /** A payout's entries as CSV, the header row in `lang`. */
  function payoutCsv(
    baseUrl: string,
    sessionToken: string,
    id: string,
    lang: string,
  ): Promise<{ blob: Blob; filename: string }> {
    return download(`${payoutUrl(baseUrl, id)}/entries.csv?lang=${lang}`, sessionToken);
  }

  return { getTransaction, actOn, exportTransactions, save, payouts, payoutEntries, payoutCsv };
}
