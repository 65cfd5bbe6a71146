import { html, type PropertyDeclarations, type PropertyValues } from 'lit-element';
import { initialState, Task, TaskStatus } from '@lit/task';
import { resolveBaseUrl } from '../../config.ts';
import {
  widgetCall,
  WidgetApiError,
  WidgetAuthError,
  WidgetNetworkError,
  type ConsoleFeatures,
  type TransactionItem,
  type TransactionPage,
  type TransactionQuery,
} from '../../widget-api.ts';
import { errorDetail, WidgetError } from '../../shared/errors.ts';
import { emit, type TransactionFilters } from '../events.ts';
import { formatMoney, interpolate, resolveLocale } from '../../shared/format.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { commonStrings, PaykitElement } from '../paykit-element.ts';
import { styles } from '../../shared/styles.ts';
import { transactionsTableStyles } from './transactions-table.styles.ts';
import type { ConsoleStringKey, TransactionConsole } from './transaction-console.ts';
import type { PayoutsStringKey } from './payouts-view.ts';
import type { DisputeStringKey } from './dispute-view.ts';
import type { ConsoleHost } from './console-host.ts';

export const transactionsTableStrings = {
  networkError: commonStrings.networkError,
  cspError: commonStrings.cspError,
  caption: 'Transactions',
  search: 'Search',
  searchHint: 'Transaction or order id, last four digits, or amount',
  filterStatus: 'Status',
  filterKind: 'Kind',
  filterCard: 'Card',
  any: 'All',
  sort: 'Sort',
  sortDateDesc: 'Newest first',
  sortDateAsc: 'Oldest first',
  sortAmountDesc: 'Largest amount first',
  sortAmountAsc: 'Smallest amount first',
  from: 'From',
  to: 'To',
  apply: 'Apply',
  clear: 'Clear filters',
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
  emptyFiltered: 'No transactions match these filters.',
  pagination: 'Pages',
  previous: 'Previous',
  next: 'Next',
  pageOf: 'Page {page} of {pages}',
  retry: 'Try again',
  rangeReversed: 'The "from" date is after the "to" date.',
  missingToken: 'No session token: set session-token or fetchSessionToken.',
  refreshFailed: 'Could not get a new session token. Reload the page.',
  typePreauth: 'Hold',
  typeAchReturn: 'ACH return',
  exportCsv: 'Export CSV',
  loadingDetails: 'Loading the details…',
} as const;

/** The values each filter takes (the service's listing refuses any other); the first of `sort` and `order` is the default. */
const FILTER_VALUES = {
  status: ['completed', 'refunded', 'voided', 'pending', 'declined', 'disputed'],
  kind: ['sale', 'refund', 'void', 'hold'],
  card_brand: ['visa', 'mastercard', 'amex', 'discover', 'ach'],
  sort: ['date', 'amount'],
  order: ['desc', 'asc'],
} as const;

/** The brands whose name is not their value capitalized. */
const BRANDS: Record<string, string> = { amex: 'American Express', ach: 'ACH' };

/**
 * The keys of `strings`: those of transactionsTableStrings, and the words for a status or a type, which are
 * the service's own word capitalized unless `strings` replaces them (`statusCompleted`, `statusVoided`,
 * `typeRefund`, `typeVoid`, …).
 */
export type TransactionsTableStringKey =
  | keyof typeof transactionsTableStrings
  | ConsoleStringKey
  | PayoutsStringKey
  | DisputeStringKey
  | `status${Capitalize<string>}`
  | `type${Capitalize<string>}`;

/** The names of the filters' controls. */
type FormField = 'q' | 'status' | 'kind' | 'card_brand' | 'from' | 'to' | 'sorting';

/** What a load depends on: session token, page size, service, page, filters. */
type ListingArgs = [string | undefined, number, string | undefined, number, string];

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
/** `ach_return` → `AchReturn`: the part of a string key after `status` or `type`. */
const keyOf = (value: string) => value.split('_').map(capitalize).join('');

/**
 * One page of the merchant's transactions; the session token is the credential. Here rather than in widget-api.ts,
 * whose module `/paykit.js` carries to every page: only the table lists.
 */
function listTransactions(
  baseUrl: string,
  sessionToken: string,
  query: TransactionQuery,
  signal?: AbortSignal,
): Promise<TransactionPage> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) params.set(name, String(value));
  return widgetCall<TransactionPage>(`${baseUrl}/api/v1/widgets/transactions?${params}`, {
    headers: { authorization: `Bearer ${sessionToken}` },
    signal,
  });
}

/**
 * The merchant's transactions (sales, refunds, voids, ACH returns; holds with `kind="hold"`), newest first, read with a
 * short-lived session token the merchant's server mints; with the features it grants, the merchant's payments console.
 * Loading, empty and error states (a `@lit/task`: in the browser only, never while a server renders it). On a phone each
 * row is a card; in a container narrower than the table, it scrolls sideways in a focusable region named by `caption`.
 * *Next* follows the last row's `next_cursor` and *Previous* its way back, so sales landing meanwhile push no row seen
 * onto the next page (a deep page costs its own rows); against a service without cursors it pages by number.
 *
 * @fires {CustomEvent<TransactionsLoadDetail>} transactions-load - A page arrived. `detail`: `{total}`, the count over all pages.
 * @fires {CustomEvent<PaykitErrorDetail>} transactions-error - Loading failed (network, the page's policy, configuration, or a token that stays refused), or an action beside a row was refused. `detail`: `{code, message}`, and the service's own sentence as `developerMessage` when the merchant was shown other words.
 * @fires {CustomEvent<TransactionActionDetail>} transaction-refunded - A refund (whole or part) went through; the row shows it. `detail`: `{transaction, amount?}`.
 * @fires {CustomEvent<TransactionActionDetail>} transaction-voided - A void went through.
 * @fires {CustomEvent<TransactionActionDetail>} transaction-captured - A hold was captured (`amount` when part of it).
 * @fires {CustomEvent<TransactionActionDetail>} transaction-released - A hold was released.
 * @fires {CustomEvent<TransactionActionDetail>} transaction-undone - "Undo sale" went through: `detail.transaction.undone_as` is `void` or `refund`.
 * @fires {CustomEvent<TransactionActionDetail>} receipt-sent - The receipt was sent again, to the shopper or to where the merchant typed.
 * @fires {CustomEvent<DisputeActionDetail>} dispute-submitted - A dispute's evidence was submitted from its panel (it is under review). `detail`: `{dispute}`.
 * @fires {CustomEvent<DisputeActionDetail>} dispute-accepted - A dispute was accepted from its panel (it is lost; its money stays withdrawn).
 * @fires {CustomEvent<TransactionFilters>} transactions-filter-change - The merchant applied or cleared filters (not fired when the page sets them). `detail`: the filters, as `filters` reads them.
 *
 * @prop {(() => Promise<string>) | undefined} fetchSessionToken
 *
 * @attr public-key - Accepted like on every element; the listing itself needs only the session token.
 *
 * @csspart base - The frame around everything.
 * @csspart filters - The search and filter form; `search-input`, `filter-select`, `date-input`, `apply-button`, `clear-button` inside it.
 * @csspart search-input - The search box.
 * @csspart filter-select - Each of the status, kind, card and sort choices.
 * @csspart date-input - Each of the two date inputs.
 * @csspart apply-button - The button that applies the range.
 * @csspart clear-button - The button that removes the range.
 * @csspart status - The polite live region: loading, the page summary, or the empty state.
 * @csspart empty - The status line when there is nothing to show.
 * @csspart error - The alert with what went wrong.
 * @csspart retry-button - "Try again" after an error.
 * @csspart table - The <table>.
 * @csspart row - Each body row.
 * @csspart details-button - The date in each row, a button (its role) that opens and closes its details (Enter or Space; Escape closes).
 * @csspart details - The panel under an open row: its timeline, refunds and actions.
 * @csspart timeline - The list of what happened to the transaction.
 * @csspart refunds - The list of its refunds.
 * @csspart actions - The actions the session's `features` allow.
 * @csspart action-button - Each action.
 * @csspart amount-input - The amount of a partial refund or capture.
 * @csspart confirm - The question a money action (refund, void, capture, release, undo) asks before anything is sent: what will happen, to which card, for how much.
 * @csspart reason-select - A refund's optional reason, in its question.
 * @csspart reason-note - The few words the reason "other" needs.
 * @csspart confirm-button - Yes to the question, named by the action.
 * @csspart cancel-button - No to the question (Escape too).
 * @csspart receipt-input - Where to resend the receipt: an e-mail or phone typed, or empty for the shopper's own.
 * @csspart receipt-error - Beside that field, why the service refused what was typed.
 * @csspart row-error - The alert beside the row acted on: what to do, in the merchant's words.
 * @csspart row-status - What the last action on the row did.
 * @csspart export-button - "Export CSV", when the session allows it: applies the controls, then exports what they show.
 * @csspart payouts - The balance and payouts, when the session allows them (`features.payouts`).
 * @csspart payouts-button - The button that opens and closes them.
 * @csspart balance - What is available and what is pending.
 * @csspart payouts-table - The payouts, newest first.
 * @csspart payout-row - Each payout.
 * @csspart payout-button - The button in each payout that opens and closes its entries (Escape closes); it is a `details-button` too.
 * @csspart payout-entries - The row under an open payout, with its entries and their CSV.
 * @csspart entries - The list of a payout's entries.
 * @csspart csv-button - "Download CSV" of a payout's entries.
 * @csspart dispute - A disputed sale's panel (`features.disputes`): the reason, the money, the time left to answer (kept current).
 * @csspart file-button - Each file saved, by its name: downloads it; why it could not, beside it.
 * @csspart evidence-form - Its evidence (text fields, files; each error beside its field), save, submit and accept.
 * @csspart dispute-confirm - The question before a dispute is submitted or accepted.
 * @csspart more-button - More payouts, or more entries of a payout.
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
 *
 * @cssstate loading - A page is on its way.
 * @cssstate loaded - A page is shown.
 * @cssstate empty - Nothing to show (for the range, if one is set).
 * @cssstate error - The error line says what went wrong; `retry-button` tries again.
 * @tagname transactions-table
 */
export class TransactionsTable extends PaykitElement<TransactionsTableStringKey> {
  static override styles = [styles, transactionsTableStyles];

  static override properties: PropertyDeclarations = {
    sessionToken: { attribute: 'session-token' },
    pageSize: { type: Number, attribute: 'page-size' },
    fetchSessionToken: { attribute: false },
    q: { reflect: true },
    status: { reflect: true },
    kind: { reflect: true },
    cardBrand: { attribute: 'card-brand', reflect: true },
    fromDate: { attribute: 'from-date', reflect: true },
    toDate: { attribute: 'to-date', reflect: true },
    sort: { reflect: true },
    order: { reflect: true },
    // Redeclared for its type: each element's own keys.
    strings: { attribute: false },
  };

  /** The read-only session token minted by the merchant's server. */
  declare sessionToken?: string;

  /** Rows per page, 1–100: more is 100; none, less than 1 or not a number is 20. */
  declare pageSize: number;

  /**
   * Asks the merchant's server for a new session token. Called when there is none, and once after the
   * service refuses the current one (401); the listing is then retried with the new token.
   */
  declare fetchSessionToken?: () => Promise<string>;

  /**
   * Replacements for any visible text, by key (the keys of `transactionsTableStrings`, and statuses and types as
   * `statusVoided`, `typeRefund`, …); `{name}` placeholders are filled in.
   */
  declare strings: Partial<Record<TransactionsTableStringKey, string>>;

  /** Search text: a transaction or order id exactly, a last four, or an amount such as `12.50`. */
  declare q?: string;
  /** `completed`, `refunded`, `voided`, `pending`, `declined` or `disputed`; anything else (or none) lists every status. */
  declare status?: string;
  /** `sale`, `refund`, `void` or `hold`; anything else (or none) lists every kind. */
  declare kind?: string;
  /** `visa`, `mastercard`, `amex`, `discover` or `ach`; anything else (or none) lists every brand. */
  declare cardBrand?: string;
  /** The first day listed, YYYY-MM-DD (UTC), inclusive. */
  declare fromDate?: string;
  /** The last day listed, YYYY-MM-DD (UTC), inclusive. */
  declare toDate?: string;
  /** `date` (the default) or `amount`. */
  declare sort?: string;
  /** `desc` (the default) or `asc`. */
  declare order?: string;

  constructor() {
    super();
    this.pageSize = 20;
  }

  /** Every filter at once, by the listing's query names; a value the listing would refuse reads as `''`. */
  get filters(): TransactionFilters {
    const pick = (name: keyof typeof FILTER_VALUES, value = '') =>
      (FILTER_VALUES[name] as readonly string[]).includes(value) ? value : '';
    const date = (value = '') => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? value : '');
    return {
      q: String(this.q ?? '')
        .trim()
        .slice(0, 100),
      status: pick('status', this.status),
      kind: pick('kind', this.kind),
      card_brand: pick('card_brand', this.cardBrand),
      from_date: date(this.fromDate),
      to_date: date(this.toDate),
      sort: pick('sort', this.sort),
      order: pick('order', this.order),
    };
  }

  /** Sets every filter at once (missing ones to "any", which removes their attributes), e.g. from `Object.fromEntries(new URLSearchParams(location.search))`. */
  set filters(filters: Partial<TransactionFilters>) {
    this.q = filters.q || undefined;
    this.status = filters.status || undefined;
    this.kind = filters.kind || undefined;
    this.cardBrand = filters.card_brand || undefined;
    this.fromDate = filters.from_date || undefined;
    this.toDate = filters.to_date || undefined;
    this.sort = filters.sort || undefined;
    this.order = filters.order || undefined;
  }

  // The console's own keys have their English in its module (transaction-console.ts), which reads them itself.
  protected override readonly defaultStrings = transactionsTableStrings as Readonly<Record<string, string>> as Readonly<
    Record<TransactionsTableStringKey, string>
  >;

  protected override readonly textsName = 'transactionsTable';

  #page = 1;
  /**
   * Where each page visited starts: the `next_cursor` of the page before it (none for the first). Pages after the
   * first are asked for by cursor, so each costs the service its own rows however deep it is, and payments landing
   * meanwhile neither repeat a row on the next page nor hide one; going back returns to the same place.
   */
  #cursors: (string | undefined)[] = [undefined];
  #rangeError = '';
  /** The row whose details are open. */
  #open = '';
  /** The details, actions and export (and the payouts, when granted), once imported. */
  #console?: TransactionConsole;
  /** A token from fetchSessionToken, used instead of `sessionToken` until that changes. */
  #renewed?: string;
  /** A load that leaving the page stopped, to run again on return. */
  #interrupted = false;

  /**
   * The current page: loaded again when the token, the page size (as set, even when it means the same number of
   * rows), the service, the page or the range change. A newer load replaces an older one, whose answer is then
   * ignored; the previous page stays shown meanwhile.
   */
  #listing = new Task(this, {
    task: async ([sessionToken, _pageSize, baseUrl, page]: ListingArgs, { signal }) => {
      const cursor = this.#cursors[page - 1];
      const query: TransactionQuery = { page, perPage: this.#perPage, ...this.filters, ...(cursor ? { cursor } : {}) };
      try {
        return await this.#list(sessionToken, baseUrl, query, signal);
      } catch (error) {
        if (signal.aborted) return initialState;
        if (!(error instanceof WidgetNetworkError)) throw error;
        await this.textsArrived();
        throw error.code === 'network' ? new WidgetError(this.t('networkError'), 'network') : this.forShopper(error);
      }
    },
    // The filters as one string, so that setting them to what they are does not load again.
    args: (): ListingArgs => [this.sessionToken, this.pageSize, this.baseUrl, this.#page, JSON.stringify(this.filters)],
    onComplete: ({ totalCount }) => emit(this, 'transactions-load', { total: Number(totalCount) || 0 }),
    onError: (error) => emit(this, 'transactions-error', errorDetail(error)),
  });

  /** What the session token allows, as its own listing says: the console shows only those actions. */
  get #features(): Partial<ConsoleFeatures> {
    return this.#listing.value?.features ?? {};
  }

  get #perPage(): number {
    const size = Math.trunc(this.pageSize);
    return size >= 1 ? Math.min(size, 100) : 20;
  }

  /** How many transactions match, over all pages, as the last load said. */
  get #total(): number {
    return Number(this.#listing.value?.totalCount) || 0;
  }

  protected override get phase(): 'loading' | 'loaded' | 'empty' | 'error' {
    switch (this.#listing.status) {
      case TaskStatus.COMPLETE:
        return this.#total ? 'loaded' : 'empty';
      case TaskStatus.ERROR:
        return 'error';
      default:
        // Before the first load too, which is how a server renders the table: the browser then loads it.
        return 'loading';
    }
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.#interrupted) {
      this.#interrupted = false;
      void this.#listing.run();
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#interrupted = this.#listing.status === TaskStatus.PENDING;
    this.#listing.abort();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    if (changed.has('sessionToken')) this.#renewed = undefined;
    if (
      ['pageSize', 'q', 'status', 'kind', 'cardBrand', 'fromDate', 'toDate', 'sort', 'order'].some((name) =>
        changed.has(name as keyof TransactionsTable),
      )
    )
      this.#toFirstPage();
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    // A way to get a token appeared after the listing failed for want of one.
    if (changed.has('fetchSessionToken') && this.fetchSessionToken && this.#listing.status === TaskStatus.ERROR)
      void this.reload();
    // The payouts are the console's: pages whose session does not grant them load none of it.
    if (this.#features.payouts) void this.#consoleModule();
  }

  /** Loads the current page again, e.g. after a payment elsewhere on the page. */
  async reload(): Promise<void> {
    await this.#listing.run();
  }

  /** One page, newest first; a refused token is renewed once through fetchSessionToken. */
  async #list(
    sessionToken: string | undefined,
    baseUrl: string | undefined,
    query: TransactionQuery,
    signal: AbortSignal,
  ): Promise<TransactionPage> {
    let renewed = false;
    const list = async (): Promise<TransactionPage> => {
      const serviceOrigin = resolveBaseUrl(baseUrl);
      let token = this.#renewed ?? sessionToken;
      if (!token && this.fetchSessionToken) {
        token = await this.#renew();
        renewed = true;
      }
      if (!token) throw new WidgetError(this.t('missingToken'), 'config');
      return listTransactions(serviceOrigin, token, query, signal);
    };
    const result = await list().catch(async (error) => {
      // One new token per refusal: a token that is refused again is reported, not retried forever.
      if (!(error instanceof WidgetAuthError) || !this.fetchSessionToken || renewed) throw error;
      await this.#renew();
      return list();
    });
    if (query.sort === 'amount') return result;
    // Each timestamp read once, not once per comparison.
    const byDate = result.items
      .map((item) => [Date.parse(item.created_date), item] as const)
      .sort(([a], [b]) => (query.order === 'asc' ? a - b : b - a));
    return { ...result, items: byDate.map(([, item]) => item) };
  }

  /** `call` with the current token; a refusal (401) gets one new token through fetchSessionToken and one retry. */
  async #withToken<T>(call: (baseUrl: string, token: string) => Promise<T>): Promise<T> {
    const baseUrl = resolveBaseUrl(this.baseUrl);
    const token = this.#renewed ?? this.sessionToken ?? (this.fetchSessionToken ? await this.#renew() : '');
    if (!token) throw new WidgetError(this.t('missingToken'), 'config');
    return call(baseUrl, token).catch(async (error) => {
      if (!(error instanceof WidgetAuthError) || !this.fetchSessionToken) throw error;
      return call(baseUrl, await this.#renew());
    });
  }

  /** The console's module, imported on first use. */
  async #consoleModule(): Promise<TransactionConsole> {
    if (this.#console) return this.#console;
    const { TransactionConsole } = await import('./transaction-console.ts');
    const host = this;
    return (this.#console ??= new TransactionConsole({
      lib: {
        html,
        formatDateTime,
        formatMoney,
        interpolate,
        widgetCall,
        WidgetApiError,
        WidgetAuthError,
        WidgetNetworkError,
      },
      // Its `t` is protected: the console modules are part of the table.
      host: host as unknown as ConsoleHost['host'],
      get locale() {
        return resolveLocale(host.locale);
      },
      get features() {
        return host.#features;
      },
      withToken: (call) => this.#withToken(call),
      ownText: (key) => this.ownText(key),
      changed: (item) => {
        const items = this.#listing.value?.items;
        const at = items?.findIndex((row) => row.transaction_id === item.transaction_id) ?? -1;
        if (at >= 0) items![at] = { ...items![at]!, ...item };
        this.requestUpdate();
      },
      update: () => this.requestUpdate(),
    }));
  }

  /** Opens the details of the row `id`, or closes them when open. */
  async #toggle(id: string): Promise<void> {
    this.#open = this.#open === id ? '' : id;
    this.requestUpdate();
    if (this.#open) await (await this.#consoleModule()).open(id);
  }

  /**
   * A row's date is a span with the button role, as a native button in each of a thousand rows made the table's layout
   * twice as slow (docs/performance.md): Enter or Space on it presses it. Escape in an open row's details closes them
   * and gives focus back to its date.
   */
  #onKey(event: KeyboardEvent): void {
    const target = event.target as HTMLElement;
    if ((event.key === 'Enter' || event.key === ' ') && target.matches('[role=button]')) {
      event.preventDefault();
      return target.click();
    }
    if (event.key !== 'Escape' || !this.#open) return;
    event.preventDefault();
    const id = this.#open;
    this.#open = '';
    this.requestUpdate();
    void this.updateComplete.then(() =>
      this.renderRoot.querySelector<HTMLElement>(`[aria-controls=details-${CSS.escape(id)}]`)?.focus(),
    );
  }

  async #export(): Promise<void> {
    this.#rangeError = '';
    try {
      await (await this.#consoleModule()).export(this.filters);
    } catch (error) {
      this.#rangeError = (error as Error).message;
    }
    this.requestUpdate();
  }

  async #renew(): Promise<string> {
    const token = (await this.fetchSessionToken!().catch(() => ''))?.trim();
    if (!token) throw new WidgetError(this.t('refreshFailed'), 'authentication_failed');
    return (this.#renewed = token);
  }

  #toFirstPage(): void {
    this.#page = 1;
    this.#cursors = [undefined];
  }

  /** Loads page `page`, or, with `filters` (from the form), the first page of those filters unless the range is reversed. */
  #load(page: number, filters?: TransactionFilters): void {
    if (filters) {
      this.#rangeError =
        filters.from_date && filters.to_date && filters.from_date > filters.to_date ? this.t('rangeReversed') : '';
      if (this.#rangeError) return this.requestUpdate();
      this.filters = filters;
      emit(this, 'transactions-filter-change', this.filters);
    }
    if (page === 1) this.#toFirstPage();
    // The page after the one shown starts where the shown one ends.
    if (page === this.#page + 1) this.#cursors[page - 1] = this.#listing.value?.next_cursor ?? undefined;
    this.#page = page;
    // Run now, not by the change of the task's arguments: applying the same filters again reloads too.
    void this.reload();
  }

  #submit(event: SubmitEvent): void {
    event.preventDefault();
    // Every control of the form is named and never disabled: each is in its data, as text.
    const form = Object.fromEntries(new FormData(event.target as HTMLFormElement)) as Record<FormField, string>;
    // The default order (newest first) is no filter: it stays out of the event and the page's URL.
    const [sort = '', order = ''] = form.sorting === 'date desc' ? [] : form.sorting.split(' ');
    const { q, status, kind, card_brand, from: from_date, to: to_date } = form;
    this.#load(1, { q, status, kind, card_brand, from_date, to_date, sort, order });
    // Export applies what the controls show, then exports it: the file is the rows the table shows.
    if ((event.submitter as HTMLButtonElement | null)?.name && !this.#rangeError) void this.#export();
  }

  /** A status or a type as a word: `strings`' or the language's, else the service's own, capitalized. */
  #word(prefix: 'status' | 'type', value: string): string {
    const key = `${prefix}${keyOf(value)}` as TransactionsTableStringKey;
    return (
      this.ownText(key) ??
      (transactionsTableStrings as Record<string, string>)[key] ??
      capitalize(value.replace('_', ' '))
    );
  }

  #row(item: TransactionItem, locale: string, cardEnding: string) {
    const {
      transaction_id: id,
      dispute_id,
      created_date: date,
      amount,
      card_brand,
      last_four,
      status,
      type,
      refunded_amount,
      refundable_amount,
    } = item;
    const open = this.#open === id;
    const brand = capitalize(card_brand);
    const card = brand || this.t('noCard');
    const said = last_four ? `${brand} ${cardEnding} ${last_four}` : '';
    // A disputed sale says so (its details tell what was refunded); a sale refunded in part or whole keeps the status
    // `completed`: its refunded amount tells.
    const shown = dispute_id
      ? 'disputed'
      : status === 'completed' && Number(refunded_amount) > 0
        ? Number(refundable_amount) > 0
          ? 'partly_refunded'
          : 'refunded'
        : status;
    // A sale is the plain case; a refund or a void says so before its status.
    const state =
      type === 'sale' ? this.#word('status', shown) : `${this.#word('type', type)} · ${this.#word('status', shown)}`;
    // One template for every row, with or without a card number, and its texts set as properties rather than
    // rendered as child parts (no marker nodes to clone and no text nodes to insert): a thousand rows in one pass.
    // Seven elements a row, as style and layout grow with them: "Visa •••• 4242" is said as its label, an image's (the
    // SR-only copy beside it, out of the flow, cost a fifth of the table's time). Attributes, not ARIA's properties,
    // which Firefox reflects only from 119; an empty label and `none` are no label and no role.
    return html`<tr part="row" data-transaction-id=${id}>
      <td><span part="details-button" role="button" tabindex="0" aria-expanded=${open} aria-controls="details-${id}" @click=${() => this.#toggle(id)} .textContent=${formatDateTime(date, locale)}></span></td>
      <td .textContent=${formatMoney(amount, locale)}></td>
      <td><span role=${said ? 'img' : 'none'} aria-label=${said} .textContent=${said ? `${brand} •••• ${last_four}` : card}></span></td>
      <td .textContent=${state}></td>
    </tr>${
      open
        ? html`<tr part="details" id="details-${id}"><td colspan="4">${this.#console?.render(item) ?? this.t('loadingDetails')}</td></tr>`
        : ''
    }`;
  }

  #table(busy: boolean) {
    const page = this.#page;
    const pages = Math.ceil(this.#total / this.#perPage) || 1;
    const locale = resolveLocale(this.locale);
    const cardEnding = this.t('cardEnding');
    const pageButton = (key: 'previous' | 'next', to: number, disabled: boolean) =>
      html`<button part="${key}-button" aria-disabled=${busy || disabled} @click=${() => busy || disabled || this.#load(to)}>${this.t(key)}</button>`;
    return html`<div role="region" aria-labelledby="caption" tabindex="0">
        <table part="table" aria-busy=${busy}>
          <caption id="caption">${this.t('caption')}</caption>
          <thead>
            <tr>${(['columnDate', 'columnAmount', 'columnCard', 'columnStatus'] as const).map((key) => html`<th>${this.t(key)}</th>`)}</tr>
          </thead>
          <tbody @keydown=${this.#onKey}>${this.#listing.value!.items.map((item) => this.#row(item, locale, cardEnding))}</tbody>
        </table>
      </div>
      <nav part="pagination" aria-label=${this.t('pagination')}>
        ${pageButton('previous', page - 1, page < 2)}
        <span part="page-status">${this.t('pageOf', { page, pages })}</span>
        ${pageButton('next', page + 1, !(this.#listing.value?.has_more ?? page < pages))}
      </nav>`;
  }

  override render() {
    const { phase } = this;
    const busy = phase === 'loading';
    const filters = this.filters;
    const ranged = filters.from_date || filters.to_date;
    const filtered = filters.q || filters.status || filters.kind || filters.card_brand;
    const first = (this.#page - 1) * this.#perPage + 1;
    // One live region for every state, so each change of its text is announced.
    const status = busy
      ? this.t('loading')
      : phase === 'empty'
        ? this.t(filtered ? 'emptyFiltered' : ranged ? 'emptyInRange' : 'empty')
        : phase === 'loaded'
          ? this.t('summary', { first, last: first + this.#listing.value!.items.length - 1, total: this.#total })
          : '';
    const dateInput = (name: 'from' | 'to', value: string) =>
      html`<label>${this.t(name)}<input part="date-input" type="date" name=${name} .value=${value} aria-invalid=${!!this.#rangeError} aria-describedby="range-error" /></label>`;
    const option = (value: string, text: string, current: string) =>
      html`<option value=${value} ?selected=${value === current}>${text}</option>`;
    const choice = (
      name: 'status' | 'kind' | 'card_brand',
      label: TransactionsTableStringKey,
      word: (value: string) => string,
    ) =>
      html`<label>${this.t(label)}<select part="filter-select" name=${name}>
        ${option('', this.t('any'), filters[name])}${FILTER_VALUES[name].map((value) => option(value, word(value), filters[name]))}
      </select></label>`;
    const sorting = `${filters.sort || 'date'} ${filters.order || 'desc'}`;
    return html`<div part="base" class=${this.scheme}>
      <form part="filters" role="search" novalidate @submit=${this.#submit}>
        <label>${this.t('search')}<input part="search-input" type="search" name="q" maxlength="100" .value=${filters.q} title=${this.t('searchHint')} /></label>
        ${choice('status', 'filterStatus', (value) => this.#word('status', value))}
        ${choice('kind', 'filterKind', (value) => this.#word('type', value))}
        ${choice('card_brand', 'filterCard', (value) => BRANDS[value] ?? capitalize(value))}
        ${dateInput('from', filters.from_date)} ${dateInput('to', filters.to_date)}
        <label>${this.t('sort')}<select part="filter-select" name="sorting">
          ${(['date desc', 'date asc', 'amount desc', 'amount asc'] as const).map((value) =>
            option(value, this.t(`sort${keyOf(value.replace(' ', '_'))}` as TransactionsTableStringKey), sorting),
          )}
        </select></label>
        <button part="apply-button">${this.t('apply')}</button>
        ${this.#features.export ? html`<button part="export-button" name="export">${this.t('exportCsv')}</button>` : ''}
        ${ranged || filtered ? html`<button part="clear-button" type="button" @click=${() => this.#load(1, { ...filters, q: '', status: '', kind: '', card_brand: '', from_date: '', to_date: '' })}>${this.t('clear')}</button>` : ''}
      </form>
      <p id="range-error" class="error" role="alert">${this.#rangeError}</p>
      ${this.#console?.payouts()}
      ${this.lines(status, this.#listing.status === TaskStatus.ERROR ? (this.#listing.error as Error).message : '', phase === 'empty' ? 'status empty' : 'status')}
      ${
        phase === 'error'
          ? html`<button part="retry-button" @click=${this.reload}>${this.t('retry')}</button>`
          : this.#total
            ? this.#table(busy)
            : ''
      }
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'transactions-table': TransactionsTable;
  }
}
