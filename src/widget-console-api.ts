/**
 * The payments console's calls (#32): a transaction's details, the actions on it, and the CSV export, each with the
 * session token. Apart from src/widget-api.ts so that only the console's lazily imported module carries them, not
 * every element's first paint. That module imports nothing the elements share (esbuild would split their common chunk
 * in two, which costs every page's first paint ~350 B brotli): the table hands it what it needs, these included.
 */
import type * as Api from './widget-api.ts';
import type { TransactionAction, TransactionDetails, TransactionQuery } from './widget-api.ts';

/** What the calls use of src/widget-api.ts, handed over by the table. */
export type ApiLib = Pick<typeof Api, 'widgetCall' | 'WidgetApiError' | 'WidgetAuthError' | 'WidgetNetworkError'>;

/** The console's calls over `lib`. */
export function consoleCalls({ widgetCall, WidgetApiError, WidgetAuthError, WidgetNetworkError }: ApiLib) {

  const bearer = (sessionToken: string) => ({ authorization: `Bearer ${sessionToken}` });
  const transactionUrl = (baseUrl: string, id: string) => `${baseUrl}/api/v1/widgets/transactions/${encodeURIComponent(id)}`;

  /** One transaction with its timeline and refunds. */
  function getTransaction(baseUrl: string, sessionToken: string, id: string): Promise<TransactionDetails> {
    return widgetCall<TransactionDetails>(transactionUrl(baseUrl, id), { headers: bearer(sessionToken) });
  }

  /**
   * An action on one transaction (each needs its feature in the session, else 403 `forbidden`): `refund` and
   * `capture` take `{ amount }` (decimal text; none for the whole), the others no body. The answer is the
   * transaction as it now is. `key` is its Idempotency-Key: sent again with a retry, the action happens once.
   */
  function actOn(baseUrl: string, sessionToken: string, id: string, action: TransactionAction, body: { amount?: string }, key: string): Promise<TransactionDetails> {
    return widgetCall<TransactionDetails>(`${transactionUrl(baseUrl, id)}/${action}`, {
      method: 'POST',
      headers: { ...bearer(sessionToken), 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });
  }

  /**
   * The filtered set as CSV (all pages; the header row in `lang`) and its file name. A link cannot carry the
   * Bearer header, so the file is fetched and handed to the page as a Blob.
   */
  async function exportTransactions(baseUrl: string, sessionToken: string, query: Omit<TransactionQuery, 'page' | 'perPage'> & { lang: string; tz: string }): Promise<{ blob: Blob; filename: string }> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value) params.set(name, String(value));
    const url = `${baseUrl}/api/v1/widgets/transactions/export.csv?${params}`;
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
    const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'transactions.csv';
    return { blob: await response.blob(), filename };
  }

    return { getTransaction, actOn, exportTransactions };
}
