/**
 * The payments console's heavier half, imported by `<transactions-table>` when a row is first opened or the export
 * first used, so the table's first paint stays small: a transaction's details (timeline and refunds), the actions the
 * session's `features` allow, and the CSV export.
 */
import type { html as litHtml, TemplateResult } from 'lit-element';
import { consoleCalls } from '../../widget-console-api.ts';
import type { TransactionAction, TransactionDetails, TransactionItem, TransactionQuery } from '../../widget-api.ts';
import type { TransactionActionDetail } from '../events.ts';
import type { ConsoleHost, ConsoleLib } from './console-host.ts';
import type { PayoutsView } from './payouts-view.ts';

// Set from the table's lib when the first console is made; the same for every table on the page.
let html: typeof litHtml;
let formatDateTime: ConsoleLib['formatDateTime'];
let formatMoney: ConsoleLib['formatMoney'];
let interpolate: ConsoleLib['interpolate'];
let calls: ReturnType<typeof consoleCalls>;

/** The console's texts (English); `strings` and the languages replace them by the same keys. */
const consoleStrings = {
  orderId: 'Order',
  transactionId: 'Transaction',
  netAmount: 'Net amount',
  fee: 'Fee',
  payout: 'Payout',
  payoutOf: '{id}, arriving {date}',
  notPaidOut: 'Not paid out yet',
  refunded: 'Refunded',
  timeline: 'Timeline',
  refunds: 'Refunds',
  noRefunds: 'No refunds.',
  actions: 'Actions',
  amountToRefund: 'Amount to refund (up to {amount}; empty for all)',
  refund: 'Refund',
  amountToCapture: 'Amount to capture (empty for {amount})',
  capture: 'Capture',
  release: 'Release the hold',
  void: 'Void',
  voidUntil: 'A void is possible until {time}.',
  undo: 'Undo sale',
  undoVoids: 'Undoing voids the sale: the fee is kept by nobody. A void is possible until {time}.',
  undoRefunds: 'Too late to void: undoing refunds {amount} in full.',
  receipt: 'Resend receipt',
  done: 'Done: {what}.',
  whatCreated: 'Created',
  whatAuthorized: 'Authorized',
  whatCaptured: 'Captured',
  whatRefunded: 'Refunded',
  whatVoided: 'Voided',
  whatAchPending: 'Bank payment submitted',
  whatAchApproved: 'Bank payment approved',
  whatAchDeclined: 'Bank payment declined',
  whatSettled: 'Settled',
  whatReceiptSent: 'Receipt sent',
} as const;

export type ConsoleStringKey = keyof typeof consoleStrings;

/** The event each action fires when it succeeds. */
const EVENTS = {
  refund: 'transaction-refunded',
  void: 'transaction-voided',
  capture: 'transaction-captured',
  release: 'transaction-released',
  undo: 'transaction-undone',
  receipt: 'receipt-sent',
} as const;

const camel = (value: string) => value.replace(/(^|_)(\w)/g, (_, __, letter: string) => letter.toUpperCase());

export class TransactionConsole {
  /** Details by transaction id, once loaded. */
  #details = new Map<string, TransactionDetails>();
  /** The last error or success beside each row, by transaction id. */
  #errors = new Map<string, string>();
  #done = new Map<string, string>();
  /** The row whose action is on its way. */
  #busy = '';
  /** The balance and payouts, imported only for a session that grants them (a promise until then). */
  #payouts?: PayoutsView | Promise<unknown>;
  /**
   * The Idempotency-Key of each action (row, action and amount) whose outcome is not known yet: an action tried again
   * after no answer, or the service's failure, sends the same key, so it happens once.
   */
  #keys = new Map<string, string>();

  readonly console: ConsoleHost;

  constructor(console: ConsoleHost) {
    this.console = console;
    ({ html, formatDateTime, formatMoney, interpolate } = console.lib);
    calls ??= consoleCalls(console.lib);
    // Made for the payouts (the table imports the console as soon as they are granted): render them.
    if (console.features.payouts) console.update();
  }

  text = (key: ConsoleStringKey, values?: Record<string, string | number>): string => interpolate(this.console.ownText(key) ?? consoleStrings[key], values);

  /** The payouts view, while the session grants payouts; imported the first time it does. */
  payouts(): TemplateResult | string {
    if (!this.console.features.payouts) return '';
    this.#payouts ??= import('./payouts-view.ts').then(({ PayoutsView }) => {
      this.#payouts = new PayoutsView(this.console);
      this.console.update();
    });
    return this.#payouts instanceof Promise ? '' : this.#payouts.render();
  }

  /** Loads (again) the details of `id`. */
  async open(id: string): Promise<void> {
    this.#errors.delete(id);
    this.#done.delete(id);
    try {
      this.#details.set(id, await this.console.withToken((baseUrl, token) => calls.getTransaction(baseUrl, token, id)));
    } catch (error) {
      this.#errors.set(id, (error as Error).message);
    }
    this.console.update();
  }

  async act(item: TransactionItem, action: TransactionAction, amount = ''): Promise<void> {
    const id = item.transaction_id;
    if (this.#busy) return;
    this.#busy = id;
    this.#errors.delete(id);
    this.#done.delete(id);
    this.console.update();
    const body: { amount?: string } = amount.trim() ? { amount: amount.trim() } : {};
    const what = `${id} ${action} ${body.amount}`;
    const key = this.#keys.get(what) ?? [...crypto.getRandomValues(new Uint32Array(4))].map((n) => n.toString(36)).join('-');
    this.#keys.set(what, key);
    try {
      const details = await this.console.withToken((baseUrl, token) => calls.actOn(baseUrl, token, id, action, body, key));
      this.#keys.delete(what);
      this.#details.set(id, details);
      this.#done.set(id, this.text('done', { what: this.#actionWord(action, details) }));
      this.console.changed(details);
      const detail: TransactionActionDetail = { transaction: details, ...(amount.trim() ? { amount: amount.trim() } : {}) };
      this.console.host.dispatchEvent(new CustomEvent(EVENTS[action], { detail, bubbles: true, composed: true }));
    } catch (error) {
      // A refusal for good (4xx but "in progress" and "too many") ends the key; no answer or a 5xx keeps it for the retry.
      const { status } = error as { status: number };
      if (status > 0 && status < 500 && status !== 409 && status !== 429) this.#keys.delete(what);
      this.#errors.set(id, (error as Error).message);
    } finally {
      this.#busy = '';
      this.console.update();
    }
  }

  #actionWord(action: TransactionAction, details: TransactionDetails): string {
    if (action === 'undo') return this.text(details.undone_as === 'void' ? 'void' : 'refund');
    return this.text(action === 'release' ? 'release' : action);
  }

  /** Downloads the filtered set as CSV, in the table's language; throws what went wrong. */
  async export(filters: Omit<TransactionQuery, 'page' | 'perPage'>): Promise<void> {
    const lang = this.console.locale.slice(0, 2);
    calls.save(await this.console.withToken((baseUrl, token) =>
      calls.exportTransactions(baseUrl, token, { ...filters, lang: ['es', 'fr', 'de'].includes(lang) ? lang : 'en' })));
  }

  /** The panel under an open row: its details, its actions, and what the last action said. */
  render(item: TransactionItem): TemplateResult {
    const { text } = this;
    const { locale } = this.console;
    const id = item.transaction_id;
    const details = this.#details.get(id);
    const error = this.#errors.get(id) ?? '';
    const lines = html`<p part="row-error" class="error" role="alert">${error}</p><p part="row-status" role="status">${this.#done.get(id) ?? ''}</p>`;
    if (!details) return html`${error ? '' : html`<p>${this.console.loading}</p>`}${lines}`;
    const money = (amount: string) => formatMoney(amount, locale);
    const when = (at: string) => html`<time datetime=${at}>${formatDateTime(at, locale)}</time>`;
    return html`<dl>
        <dt>${text('transactionId')}</dt><dd>${id}</dd>
        ${details.order_id ? html`<dt>${text('orderId')}</dt><dd>${details.order_id}</dd>` : ''}
        <dt>${text('netAmount')}</dt><dd>${money(details.net_amount)}</dd>
        ${details.money && details.type === 'sale'
          ? html`<dt>${text('fee')}</dt><dd>${money(details.money.fee_amount)}</dd>
            <dt>${text('payout')}</dt><dd>${details.money.payout ? text('payoutOf', { id: details.money.payout.payout_id, date: details.money.payout.arrival_date }) : text('notPaidOut')}</dd>`
          : ''}
        ${Number(details.refunded_amount) > 0 ? html`<dt>${text('refunded')}</dt><dd>${money(details.refunded_amount)}</dd>` : ''}
      </dl>
      <p class="heading">${text('timeline')}</p>
      <ol part="timeline">
        ${details.timeline.map(({ at, what, amount }) => html`<li>${when(at)} ${`what${camel(what)}` in consoleStrings ? text(`what${camel(what)}` as ConsoleStringKey) : what}${amount ? ` · ${money(amount)}` : ''}</li>`)}
      </ol>
      <p class="heading">${text('refunds')}</p>
      ${details.refunds.length
        ? html`<ul part="refunds">${details.refunds.map((refund) => html`<li>${when(refund.created_date)} · ${money(refund.amount)} · ${refund.transaction_id}</li>`)}</ul>`
        : html`<p>${text('noRefunds')}</p>`}
      ${this.#actions(details)}
      ${lines}`;
  }

  /** Only what the session allows and the transaction still permits. */
  #actions(item: TransactionDetails): TemplateResult | string {
    const { text } = this;
    const { features, locale } = this.console;
    const busy = this.#busy === item.transaction_id;
    const money = (amount: string) => formatMoney(amount, locale);
    const voidUntil = item.voidable_until && Date.parse(item.voidable_until) > Date.now() ? formatDateTime(item.voidable_until, locale) : '';
    const refundable = Number(item.refundable_amount) > 0;
    const sale = item.type === 'sale';
    const button = (action: TransactionAction, label: string, describedBy?: string) =>
      html`<button part="action-button" type="button" data-action=${action} aria-busy=${busy} aria-describedby=${describedBy ?? ''}
        @click=${() => this.act(item, action)}>${label}</button>`;
    const amountForm = (action: 'refund' | 'capture', label: string, hint: string) =>
      html`<form class="action" @submit=${(event: SubmitEvent) => {
        event.preventDefault();
        void this.act(item, action, new FormData(event.target as HTMLFormElement).get('amount') as string);
      }}>
        <label>${hint}<input part="amount-input" name="amount" inputmode="decimal" autocomplete="off" /></label>
        <button part="action-button" data-action=${action} aria-busy=${busy}>${label}</button>
      </form>`;
    const undoVoids = sale && !!voidUntil && features.voids;
    const undoRefunds = sale && !voidUntil && refundable && features.refunds;
    const parts = [
      features.refunds && refundable ? amountForm('refund', text('refund'), text('amountToRefund', { amount: money(item.refundable_amount) })) : '',
      features.voids && voidUntil ? html`${button('void', text('void'), `void-${item.transaction_id}`)}<p id=${`void-${item.transaction_id}`}>${text('voidUntil', { time: voidUntil })}</p>` : '',
      features.captures && item.capturable ? html`${amountForm('capture', text('capture'), text('amountToCapture', { amount: money(item.amount) }))}${button('release', text('release'))}` : '',
      undoVoids || undoRefunds
        ? html`${button('undo', text('undo'), `undo-${item.transaction_id}`)}<p id=${`undo-${item.transaction_id}`}>${
            undoVoids ? text('undoVoids', { time: voidUntil }) : text('undoRefunds', { amount: money(item.refundable_amount) })}</p>`
        : '',
      features.receipts && item.type !== 'preauth' ? button('receipt', text('receipt')) : '',
    ].filter(Boolean);
    return parts.length ? html`<p class="heading">${text('actions')}</p><div part="actions" class="actions">${parts}</div>` : '';
  }
}
