import { html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { listTransactions, resolveServiceOrigin, WidgetAuthError, WidgetNetworkError, type TransactionItem } from '../../widget-api.ts';
import { emit } from '../../shared/events.ts';
import { formatDateTime } from '../../shared/format.ts';
import { PaykitElement } from '../../shared/paykit-element.ts';
import { transactionsTableStyles } from './transactions-table.styles.ts';

export const transactionsTableStrings = {
  caption: 'Transactions',
  from: 'From',
  to: 'To',
  apply: 'Apply',
  clear: 'Clear dates',
  columnDate: 'Date',
  columnAmount: 'Amount',
  columnCard: 'Card',
  columnStatus: 'Status',
  cardEnding: 'ending in',
  noCard: '—',
  loading: 'Loading transactions…',
  summary: 'Showing {first}–{last} of {total} transactions.',
  empty: 'No transactions yet',
  emptyInRange: 'No transactions between these dates.',
  pagination: 'Pages of transactions',
  previous: 'Previous',
  next: 'Next',
  pageOf: 'Page {page} of {pages}',
  retry: 'Try again',
  rangeReversed: 'The "from" date is after the "to" date: pick a start on or before the end.',
  missingToken: 'No session token: set session-token, or fetchSessionToken, with a token from your server.',
  refreshFailed: 'Could not get a new session token from your server. Reload the page to try again.',
  networkError: 'Could not reach the payment service. Check the connection and try again.',
  statusCompleted: 'Completed',
  statusPending: 'Pending',
  statusDeclined: 'Declined',
  statusVoided: 'Voided',
  statusAuthorized: 'Authorized',
  statusCaptured: 'Captured',
  typeRefund: 'Refund',
  typeVoid: 'Void',
} as const;

export type TransactionsTableStringKey = keyof typeof transactionsTableStrings;

type Phase = 'loading' | 'loaded' | 'error';

const STATUS_KEYS: Record<string, TransactionsTableStringKey> = {
  completed: 'statusCompleted',
  pending: 'statusPending',
  declined: 'statusDeclined',
  voided: 'statusVoided',
  authorized: 'statusAuthorized',
  captured: 'statusCaptured',
};
const TYPE_KEYS: Record<string, TransactionsTableStringKey> = { refund: 'typeRefund', void: 'typeVoid' };

const DEFAULT_PAGE_SIZE = 20;

function capitalize(text: string): string {
  return text ? text[0]!.toUpperCase() + text.slice(1) : text;
}

/**
 * The merchant's completed transactions, newest first, read with a short-lived read-only session token that
 * the merchant's server mints. Pages, a date range, and loading, empty and error states. State is plain
 * reactive properties: `@lit/task` is not a dependency of the package.
 *
 * @fires transactions-load - A page arrived. `detail`: `{total}`, the count over all pages.
 * @fires transactions-error - Loading failed (network, configuration, or a token that stays refused). `detail`: `{message}`.
 *
 * @attr session-token - The read-only session token from `POST /api/v1/widgets/sessions` on the merchant's server.
 * @attr page-size - Rows per page, 1–100 (20).
 * @attr locale - BCP 47 locale for amounts and dates; default the document's language, else en-US.
 * @attr base-url - The payment service's origin; overrides the script tag and configure().
 * @attr public-key - Accepted like on every element; the listing itself needs only the session token.
 *
 * @csspart base - The frame around everything.
 * @csspart filters - The date-range form; `date-input`, `apply-button`, `clear-button` inside it.
 * @csspart date-input - Each of the two date inputs.
 * @csspart apply-button - The button that applies the range.
 * @csspart clear-button - The button that removes the range.
 * @csspart status - The polite live region: loading, the page summary, or the empty state.
 * @csspart empty - The status line when there is nothing to show.
 * @csspart error - The alert with what went wrong.
 * @csspart retry-button - "Try again" after an error.
 * @csspart table - The <table>.
 * @csspart row - Each body row.
 * @csspart pagination - The paging controls.
 * @csspart previous-button - Previous page.
 * @csspart next-button - Next page.
 * @csspart page-status - "Page X of Y".
 *
 * @cssprop --paykit-surface-color - Background.
 * @cssprop --paykit-text-color - Text colour.
 * @cssprop --paykit-muted-color - Headers and secondary text.
 * @cssprop --paykit-border-color - Frame and input borders.
 * @cssprop --paykit-primary-color - Button background.
 * @cssprop --paykit-on-primary-color - Button text colour.
 * @cssprop --paykit-error-color - The bar beside an error, and a refused date.
 * @cssprop --paykit-focus-ring-color - Keyboard focus outline.
 * @cssprop --paykit-radius - Corner radius.
 * @cssprop --paykit-font-family - Font.
 * @cssprop --paykit-font-size - Base font size.
 * @cssprop --paykit-target-size - Minimum size of controls (44px).
 * @tagname transactions-table
 */
export class TransactionsTable extends PaykitElement<TransactionsTableStringKey> {
  static override styles = transactionsTableStyles;

  /** The read-only session token minted by the merchant's server. */
  @property({ attribute: 'session-token' }) sessionToken?: string;

  /** Rows per page, 1–100. */
  @property({ type: Number, attribute: 'page-size' }) pageSize = DEFAULT_PAGE_SIZE;

  /**
   * Asks the merchant's server for a new session token. Called when there is none, and once after the
   * service refuses the current one (401); the listing is then retried with the new token.
   */
  @property({ attribute: false }) fetchSessionToken?: () => Promise<string>;

  protected override readonly defaultStrings = transactionsTableStrings;

  @state() private phase: Phase = 'loading';
  @state() private items: TransactionItem[] = [];
  @state() private totalCount = 0;
  @state() private page = 1;
  @state() private range = { from: '', to: '' };
  @state() private errorText = '';
  @state() private rangeError = '';

  /** A token from fetchSessionToken, used instead of `sessionToken` until that changes. */
  private refreshedToken?: string;
  private inflight?: AbortController;

  private get perPage(): number {
    const size = Math.trunc(Number(this.pageSize));
    return Number.isFinite(size) && size >= 1 ? Math.min(size, 100) : DEFAULT_PAGE_SIZE;
  }

  private get pageCount(): number {
    return Math.max(1, Math.ceil(this.totalCount / this.perPage));
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Back in the page after a move that interrupted a load: load again.
    if (this.hasUpdated && this.phase === 'loading') void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.inflight?.abort();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    if (changed.has('sessionToken')) this.refreshedToken = undefined;
    if (this.hasUpdated && changed.has('pageSize')) this.page = 1;
    const tokenSourceAppeared = changed.has('fetchSessionToken') && this.fetchSessionToken && !this.sessionToken && this.phase === 'error';
    if (!this.hasUpdated || changed.has('sessionToken') || changed.has('pageSize') || changed.has('baseUrl') || tokenSourceAppeared) {
      void this.load();
    }
  }

  /** Loads the current page again, e.g. after a payment elsewhere on the page. */
  async reload(): Promise<void> {
    await this.load();
  }

  private async load(): Promise<void> {
    this.inflight?.abort();
    const abort = (this.inflight = new AbortController());
    const query = { page: this.page, perPage: this.perPage, from_date: this.range.from || undefined, to_date: this.range.to || undefined };
    this.phase = 'loading';
    this.errorText = '';
    try {
      const baseUrl = resolveServiceOrigin(this.baseUrl);
      let token = this.refreshedToken ?? this.sessionToken;
      let refreshed = false;
      if (!token && this.fetchSessionToken) {
        token = await this.newToken();
        refreshed = true;
      }
      if (!token) throw new Error(this.t('missingToken'));
      let result;
      try {
        result = await listTransactions(baseUrl, token, query, abort.signal);
      } catch (error) {
        // One new token per refusal: a token that is refused again is reported, not retried forever.
        if (!(error instanceof WidgetAuthError) || !this.fetchSessionToken || refreshed || abort.signal.aborted) throw error;
        token = await this.newToken();
        if (abort.signal.aborted) return;
        result = await listTransactions(baseUrl, token, query, abort.signal);
      }
      if (abort.signal.aborted) return;
      this.items = [...result.items].sort((a, b) => Date.parse(b.created_date) - Date.parse(a.created_date));
      this.totalCount = Math.max(0, Number(result.totalCount) || 0);
      if (this.items.length === 0 && this.page > this.pageCount) {
        // The list shrank under the current page: show the last one that exists.
        this.page = this.pageCount;
        await this.load();
        return;
      }
      this.phase = 'loaded';
      emit(this, 'transactions-load', { total: this.totalCount });
    } catch (error) {
      if (abort.signal.aborted) return;
      const message = error instanceof WidgetNetworkError ? this.t('networkError') : (error as Error).message || String(error);
      this.phase = 'error';
      this.errorText = message;
      emit(this, 'transactions-error', { message });
    }
  }

  private async newToken(): Promise<string> {
    let token: unknown;
    try {
      token = await this.fetchSessionToken!();
    } catch (error) {
      console.warn('Paykit: fetchSessionToken failed:', error);
      throw new Error(this.t('refreshFailed'));
    }
    if (typeof token !== 'string' || !token.trim()) throw new Error(this.t('refreshFailed'));
    this.refreshedToken = token.trim();
    return this.refreshedToken;
  }

  private goTo(page: number): void {
    if (this.phase === 'loading' || page < 1 || page > this.pageCount || page === this.page) return;
    this.page = page;
    void this.load();
  }

  private applyRange(event: SubmitEvent): void {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const from = (form.elements.namedItem('from') as HTMLInputElement).value;
    const to = (form.elements.namedItem('to') as HTMLInputElement).value;
    if (from && to && from > to) {
      this.rangeError = this.t('rangeReversed');
      return;
    }
    this.rangeError = '';
    this.range = { from, to };
    this.page = 1;
    void this.load();
  }

  private clearRange(): void {
    const form = this.renderRoot.querySelector('form');
    form?.reset();
    this.rangeError = '';
    this.range = { from: '', to: '' };
    this.page = 1;
    void this.load();
  }

  private statusLabel(item: TransactionItem): string {
    const statusKey = STATUS_KEYS[item.status];
    const status = statusKey ? this.t(statusKey) : capitalize(item.status);
    const typeKey = TYPE_KEYS[item.type];
    return typeKey ? `${this.t(typeKey)} · ${status}` : status;
  }

  private renderCard(item: TransactionItem) {
    if (!item.last_four) return item.card_brand ? capitalize(item.card_brand) : this.t('noCard');
    return html`${item.card_brand ? `${capitalize(item.card_brand)} ` : ''}<span aria-hidden="true">•••• </span><span class="visually-hidden">${this.t('cardEnding')} </span>${item.last_four}`;
  }

  /** One live region for every state, so each change of its text is announced. */
  private renderStatusLine() {
    let text = '';
    let state: string = this.phase;
    if (this.phase === 'loading') text = this.t('loading');
    else if (this.phase === 'loaded' && this.totalCount === 0) {
      state = 'empty';
      text = this.range.from || this.range.to ? this.t('emptyInRange') : this.t('empty');
    } else if (this.phase === 'loaded') {
      const first = (this.page - 1) * this.perPage + 1;
      text = this.t('summary', { first, last: first + this.items.length - 1, total: this.totalCount });
    }
    return html`<p part=${state === 'empty' ? 'status empty' : 'status'} class="status" data-state=${state} aria-live="polite">${text}</p>`;
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    this.reflectState(this.phase === 'loaded' && this.totalCount === 0 ? 'empty' : this.phase);
  }

  override render() {
    const locale = this.resolvedLocale;
    const busy = this.phase === 'loading';
    const rangeApplied = Boolean(this.range.from || this.range.to);
    const atFirst = this.page <= 1 || busy;
    const atLast = this.page >= this.pageCount || busy;
    return html`<div part="base" class="base">
      <form part="filters" class="filters" @submit=${this.applyRange} novalidate>
        <label class="field">${this.t('from')}
          <input part="date-input" type="date" name="from" .value=${this.range.from} aria-invalid=${this.rangeError ? 'true' : 'false'} aria-describedby="range-error" />
        </label>
        <label class="field">${this.t('to')}
          <input part="date-input" type="date" name="to" .value=${this.range.to} aria-invalid=${this.rangeError ? 'true' : 'false'} aria-describedby="range-error" />
        </label>
        <button part="apply-button" class="button" type="submit">${this.t('apply')}</button>
        ${rangeApplied
          ? html`<button part="clear-button" class="button secondary" type="button" @click=${this.clearRange}>${this.t('clear')}</button>`
          : nothing}
      </form>
      <p id="range-error" class="error" role="alert">${this.rangeError}</p>

      ${this.renderStatusLine()}
      <p part="error" class="error" role="alert">${this.errorText}</p>
      ${this.phase === 'error'
        ? html`<button part="retry-button" class="button secondary retry" type="button" @click=${() => void this.load()}>${this.t('retry')}</button>`
        : nothing}

      ${this.items.length > 0 && this.phase !== 'error'
        ? html`<div class="scroller" role="region" aria-labelledby="caption" tabindex="0">
            <table part="table" aria-busy=${busy ? 'true' : 'false'}>
              <caption id="caption" class="visually-hidden">${this.t('caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">${this.t('columnDate')}</th>
                  <th scope="col" class="amount">${this.t('columnAmount')}</th>
                  <th scope="col">${this.t('columnCard')}</th>
                  <th scope="col">${this.t('columnStatus')}</th>
                </tr>
              </thead>
              <tbody>
                ${this.items.map(
                  (item) => html`<tr part="row" data-transaction-id=${item.transaction_id}>
                    <td><time datetime=${item.created_date}>${formatDateTime(item.created_date, locale)}</time></td>
                    <td class="amount">${this.money(item.amount)}</td>
                    <td>${this.renderCard(item)}</td>
                    <td>${this.statusLabel(item)}</td>
                  </tr>`,
                )}
              </tbody>
            </table>
          </div>`
        : nothing}

      ${this.totalCount > 0 && this.phase !== 'error'
        ? html`<nav part="pagination" class="pagination" aria-label=${this.t('pagination')}>
            <button part="previous-button" class="button secondary" type="button" aria-disabled=${atFirst ? 'true' : 'false'} @click=${() => this.goTo(this.page - 1)}>
              ${this.t('previous')}
            </button>
            <span part="page-status" class="page-status">${this.t('pageOf', { page: this.page, pages: this.pageCount })}</span>
            <button part="next-button" class="button secondary" type="button" aria-disabled=${atLast ? 'true' : 'false'} @click=${() => this.goTo(this.page + 1)}>
              ${this.t('next')}
            </button>
          </nav>`
        : nothing}
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'transactions-table': TransactionsTable;
  }
}
