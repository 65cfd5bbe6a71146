/**
 * The payments console's heavier half, imported by `<transactions-table>` when a row is first opened or the export
 * first used, so the table's first paint stays small: a transaction's details (timeline and refunds), the actions the
 * session's `features` allow, and the CSV export.
 */
import type { html as litHtml, TemplateResult } from 'lit-element';
import { consoleCalls } from '../../widget-console-api.ts';
import type {
  TransactionAction,
  WidgetApiError,
  TransactionDetails,
  TransactionItem,
  TransactionQuery,
} from '../../widget-api.ts';
import type { TransactionActionDetail } from '../events.ts';
import type { ConsoleHost, ConsoleLib } from './console-host.ts';
import type { PayoutsView } from './payouts-view.ts';
import type { DisputeView } from './dispute-view.ts';

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
  undoRefunds: "A settled sale can't be voided; undo refunds {amount} in full.",
  undoRefundsRest: "A partly refunded sale can't be voided; undo refunds the rest, {amount}.",
  confirmRefund: 'Refund {amount} of {of} to {card}?',
  confirmVoid: 'Void the sale of {amount} on {card}? The shopper is not charged.',
  confirmCapture: 'Capture {amount} of the {of} held on {card}?',
  confirmRaise: 'Raise the hold on {card} from {of} to {amount} and capture it?',
  confirmRelease: 'Release the {amount} held on {card}? The shopper is not charged.',
  confirmUndoVoid: 'Undo the sale: void {amount} on {card}? The shopper is not charged.',
  confirmUndoRefund: 'Undo the sale: refund {amount} to {card}?',
  cancel: 'Cancel',
  amountInvalid: 'Enter an amount such as 5.00: it must be more than zero, with at most two decimals.',
  amountOver: 'At most {amount} can be refunded.',
  refusedForbidden: 'This console is not allowed to do that. Ask whoever set up your console to allow it.',
  refusedSession: 'Your session has ended. Reload the page and try again.',
  refusedTooMany: 'Too many tries at once. Wait a few minutes, then try again.',
  receipt: 'Resend receipt',
  receiptTo: "Send to an e-mail or phone (empty: the shopper's own)",
  receiptTooMany: 'This receipt was sent as often as an hour allows. Try again in {minutes} min.',
  reason: 'Reason',
  reasonNone: 'None given',
  reasonRequestedByCustomer: 'Requested by the customer',
  reasonDuplicate: 'Duplicate',
  reasonFraudulent: 'Fraudulent',
  reasonOther: 'Other',
  reasonNote: 'Why, in a few words',
  reasonNoteMissing: 'Say in a few words why you refund, or choose another reason.',
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
  whatReleased: 'Released',
  whatIncreased: 'Hold raised',
  whatDecreased: 'Hold lowered',
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

/** The actions that move money: each asks first. */
type MoneyAction = Exclude<TransactionAction, 'receipt'>;

/** The brands as the table names them (its filter's words). */
const BRAND_NAMES: Record<string, string> = { amex: 'American Express', ach: 'ACH' };
const cardOf = ({ card_brand: brand, last_four: last }: TransactionItem) =>
  `${BRAND_NAMES[brand] ?? brand.charAt(0).toUpperCase() + brand.slice(1)}${last ? ` •••• ${last}` : ''}`;
/** Decimal text as the service takes it, more than zero: "5", "5.5", "5.50". */
const isAmount = (text: string) => /^\d{1,13}(\.\d{1,2})?$/.test(text) && Number(text) > 0;

/** The money action asked about; a refund's reason and note as chosen in its question. */
type Asked = {
  id: string;
  action: MoneyAction;
  amount: string;
  form?: HTMLFormElement | undefined;
  reason?: string;
  note?: string;
};

/** A refund's reasons, as the service takes them. */
const REASONS = ['requested_by_customer', 'duplicate', 'fraudulent', 'other'];

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
  /** The dispute panel, imported the first time a disputed sale is opened with a session that grants disputes. */
  #disputes?: DisputeView | Promise<unknown>;
  /**
   * The money action waiting for the merchant's yes, with the exact amount its question shows (an empty field has
   * become the whole amount) and the form it was typed in, emptied once the action went through.
   */
  #asked?: Asked;
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

  text = (key: ConsoleStringKey, values?: Record<string, string | number>): string =>
    interpolate(this.console.ownText(key) ?? consoleStrings[key], values);

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

  /**
   * A money action asks first: the question says exactly what will happen, with the amount it will send (an empty
   * field means the whole amount, shown as such). An amount that is not one is refused here, in the merchant's words.
   */
  ask(item: TransactionItem, action: MoneyAction, typed = '', form?: HTMLFormElement): void {
    const id = item.transaction_id;
    const amount = typed.trim();
    this.#errors.delete(id);
    this.#done.delete(id);
    this.#asked = undefined;
    if (amount && !isAmount(amount)) this.#errors.set(id, this.text('amountInvalid'));
    else if (action === 'refund' && Number(amount) > Number(item.refundable_amount)) {
      this.#errors.set(
        id,
        this.text('amountOver', { amount: formatMoney(item.refundable_amount, this.console.locale) }),
      );
    } else {
      const whole = action === 'refund' ? item.refundable_amount : item.amount;
      this.#asked = { id, action, amount: Number(amount || whole).toFixed(2), form };
    }
    // The question takes focus, so that it is read, and a second Enter does not answer it.
    this.#focusAfter('[part="confirm"] p');
  }

  /** Renders, then focuses what `selector` finds in the table. */
  #focusAfter(selector: string): void {
    this.console.update();
    const host = this.console.host as HTMLElement & { updateComplete: Promise<unknown> };
    if (selector) void host.updateComplete.then(() => host.shadowRoot!.querySelector<HTMLElement>(selector)?.focus());
  }

  /** No to the question: it goes, and focus returns to the action asked (not while its amount is being typed). */
  #cancel(typing = false): void {
    const asked = this.#asked;
    this.#asked = undefined;
    this.#focusAfter(typing ? '' : `[data-action="${asked?.action}"]`);
  }

  /** `more`: a refund's reason, or where a receipt goes (`email` or `phone`). */
  async act(
    item: TransactionItem,
    action: TransactionAction,
    amount = '',
    form?: HTMLFormElement,
    more: Record<string, string> = {},
  ): Promise<void> {
    const id = item.transaction_id;
    if (this.#busy) return;
    this.#busy = id;
    this.#asked = undefined;
    this.#errors.delete(id);
    this.#errors.delete(`${id} to`);
    this.#done.delete(id);
    this.console.update();
    const body = { ...(amount ? { amount } : {}), ...more };
    const what = `${id} ${action} ${JSON.stringify(body)}`;
    const key =
      this.#keys.get(what) ?? [...crypto.getRandomValues(new Uint32Array(4))].map((n) => n.toString(36)).join('-');
    this.#keys.set(what, key);
    try {
      const details = await this.console.withToken((baseUrl, token) =>
        calls.actOn(baseUrl, token, id, action, body, key),
      );
      this.#keys.delete(what);
      // The amount is spent: it cannot be sent a second time by a click on a field left as it was.
      form?.reset();
      this.#details.set(id, details);
      this.#done.set(id, this.text('done', { what: this.#actionWord(action, details) }));
      this.console.changed(details);
      const detail: TransactionActionDetail = { transaction: details, ...(amount ? { amount } : {}) };
      this.console.host.dispatchEvent(new CustomEvent(EVENTS[action], { detail, bubbles: true, composed: true }));
    } catch (error) {
      // A refusal for good (4xx but "in progress" and "too many") ends the key; no answer or a 5xx keeps it for the retry.
      const { status, code, message, retryAfter } = error as WidgetApiError & { retryAfter?: number | null };
      if (status > 0 && status < 500 && status !== 409 && status !== 429) this.#keys.delete(what);
      // The merchant reads what to do; the service's sentence, for the page's developer, goes with the event.
      const words =
        code === 'forbidden'
          ? this.text('refusedForbidden')
          : code === 'authentication_failed'
            ? this.text('refusedSession')
            : code === 'rate_limited'
              ? action === 'receipt' && retryAfter
                ? this.text('receiptTooMany', { minutes: Math.ceil(retryAfter / 60) })
                : this.text('refusedTooMany')
              : status === 0
                ? (this.console.ownText('networkError') ?? 'Could not reach the payment service. Try again.')
                : message;
      // A recipient the service refuses: its sentence beside the field typed.
      this.#errors.set(action === 'receipt' && status === 400 && (more.email || more.phone) ? `${id} to` : id, words);
      this.console.host.dispatchEvent(
        new CustomEvent('transactions-error', {
          detail: {
            code: code ?? 'service_error',
            message: words,
            ...(words === message ? {} : { developerMessage: message }),
          },
          bubbles: true,
          composed: true,
        }),
      );
    } finally {
      this.#busy = '';
      this.console.update();
    }
  }

  #actionWord(action: TransactionAction, details: TransactionDetails): string {
    if (action === 'undo') return this.text(details.undone_as === 'void' ? 'void' : 'refund');
    return this.text(action === 'release' ? 'release' : action);
  }

  /** Downloads the filtered set as CSV, in the table's language and the browser's time zone; throws what went wrong. */
  async export(filters: Omit<TransactionQuery, 'page' | 'perPage'>): Promise<void> {
    const lang = this.console.locale.slice(0, 2);
    calls.save(
      await this.console.withToken((baseUrl, token) =>
        // Dates in the merchant's own time zone, the browser's.
        calls.exportTransactions(baseUrl, token, {
          ...filters,
          lang: ['es', 'fr', 'de'].includes(lang) ? lang : 'en',
          tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
        }),
      ),
    );
  }

  #dispute(item: TransactionItem): TemplateResult | string {
    if (!item.dispute_id || !this.console.features.disputes) return '';
    this.#disputes ??= import('./dispute-view.ts').then(({ DisputeView }) => {
      this.#disputes = new DisputeView(this.console);
      this.console.update();
    });
    return this.#disputes instanceof Promise ? '' : this.#disputes.render(item);
  }

  /** The panel under an open row: its details, its actions, and what the last action said. */
  render(item: TransactionItem): TemplateResult {
    const { text } = this;
    const { locale } = this.console;
    const id = item.transaction_id;
    const details = this.#details.get(id);
    const error = this.#errors.get(id) ?? '';
    const lines = html`<p part="row-error" class="error" role="alert">${error}</p><p part="row-status" role="status">${this.#done.get(id) ?? ''}</p>`;
    if (!details) return html`${error ? '' : html`<p>${this.console.host.t('loadingDetails')}</p>`}${lines}`;
    const money = (amount: string) => formatMoney(amount, locale);
    const when = (at: string) => html`<time datetime=${at}>${formatDateTime(at, locale)}</time>`;
    let held: string | undefined;
    return html`<dl>
        <dt>${text('transactionId')}</dt><dd>${id}</dd>
        ${details.order_id ? html`<dt>${text('orderId')}</dt><dd>${details.order_id}</dd>` : ''}
        <dt>${text('netAmount')}</dt><dd>${money(details.net_amount)}</dd>
        ${
          details.money && details.type === 'sale'
            ? html`<dt>${text('fee')}</dt><dd>${money(details.money.fee_amount)}</dd>
            <dt>${text('payout')}</dt><dd>${details.money.payout ? text('payoutOf', { id: details.money.payout.payout_id, date: details.money.payout.arrival_date }) : text('notPaidOut')}</dd>`
            : ''
        }
        ${Number(details.refunded_amount) > 0 ? html`<dt>${text('refunded')}</dt><dd>${money(details.refunded_amount)}</dd>` : ''}
      </dl>
      <p class="heading">${text('timeline')}</p>
      <ol part="timeline">
        ${details.timeline.map(({ at, what, amount }) => {
          // A hold's history tells each raise and cut as the amount authorized after it: said as a raise or a cut.
          let step: string = what;
          if (what === 'authorized') {
            if (held && amount !== held) step = Number(amount) > Number(held) ? 'increased' : 'decreased';
            held = amount;
          }
          const key = `what${camel(step)}`;
          return html`<li>${when(at)} ${key in consoleStrings ? text(key as ConsoleStringKey) : step}${amount ? ` · ${money(amount)}` : ''}</li>`;
        })}
      </ol>
      <p class="heading">${text('refunds')}</p>
      ${
        details.refunds.length
          ? html`<ul part="refunds">${details.refunds.map(({ created_date, amount, transaction_id, reason, reason_note }) => html`<li>${when(created_date)} · ${money(amount)} · ${transaction_id}${reason ? ` · ${text(`reason${camel(reason)}` as ConsoleStringKey)}${reason_note ? `: ${reason_note}` : ''}` : ''}</li>`)}</ul>`
          : html`<p>${text('noRefunds')}</p>`
      }
      ${this.#actions(details)}
      ${this.#dispute(details)}
      ${lines}`;
  }

  /** Only what the session allows and the transaction still permits; under them, the question a money action asks. */
  #actions(item: TransactionDetails): TemplateResult | string {
    const { text } = this;
    const { features, locale } = this.console;
    const id = item.transaction_id;
    const busy = this.#busy === id;
    const money = (amount: string) => formatMoney(amount, locale);
    const voidUntil =
      item.voidable_until && Date.parse(item.voidable_until) > Date.now()
        ? formatDateTime(item.voidable_until, locale)
        : '';
    const refundable = Number(item.refundable_amount) > 0;
    const sale = item.type === 'sale';
    const button = (action: TransactionAction, label: string, describedBy?: string) =>
      html`<button part="action-button" type="button" data-action=${action} aria-busy=${busy} aria-describedby=${describedBy ?? ''}
        @click=${() => (action === 'receipt' ? this.act(item, action) : this.ask(item, action))}>${label}</button>`;
    const amountForm = (action: 'refund' | 'capture', label: string, hint: string) =>
      html`<form class="action" @submit=${(event: SubmitEvent) => {
        event.preventDefault();
        const form = event.target as HTMLFormElement;
        this.ask(item, action, new FormData(form).get('amount') as string, form);
      }}>
        <label>${hint}<input part="amount-input" name="amount" inputmode="decimal" autocomplete="off"
          @input=${() => this.#asked?.id === id && this.#asked.action === action && this.#cancel(true)} /></label>
        <button part="action-button" data-action=${action} aria-busy=${busy}>${label}</button>
      </form>`;
    const undoVoids = sale && !!voidUntil && features.voids;
    const undoRefunds = sale && !voidUntil && refundable && features.refunds;
    const parts = [
      features.refunds && refundable
        ? amountForm('refund', text('refund'), text('amountToRefund', { amount: money(item.refundable_amount) }))
        : '',
      features.voids && voidUntil
        ? html`${button('void', text('void'), `void-${id}`)}<p id=${`void-${id}`}>${text('voidUntil', { time: voidUntil })}</p>`
        : '',
      features.captures && item.capturable
        ? html`${amountForm('capture', text('capture'), text('amountToCapture', { amount: money(item.amount) }))}${button('release', text('release'))}`
        : '',
      undoVoids || undoRefunds
        ? html`${button('undo', text('undo'), `undo-${id}`)}<p id=${`undo-${id}`}>${
            undoVoids
              ? text('undoVoids', { time: voidUntil })
              : text(Number(item.refunded_amount) > 0 ? 'undoRefundsRest' : 'undoRefunds', {
                  amount: money(item.refundable_amount),
                })
          }</p>`
        : '',
      features.receipts && item.type !== 'preauth' ? this.#receiptForm(item, busy) : '',
    ].filter(Boolean);
    return parts.length
      ? html`<p class="heading">${text('actions')}</p><div part="actions" class="actions">${parts}</div>${this.#question(item)}`
      : '';
  }

  /** Yes to the question: the action goes, with a refund's reason; "other" without its note is asked for the note. */
  #confirm(item: TransactionDetails, { id, action, amount, form, reason, note = '' }: Asked): void {
    if (reason === 'other' && !note.trim()) {
      this.#errors.set(id, this.text('reasonNoteMissing'));
      return this.#focusAfter('[part="reason-note"]');
    }
    const why = reason ? { reason, ...(reason === 'other' ? { reason_note: note.trim() } : {}) } : {};
    void this.act(item, action, action === 'refund' || action === 'capture' ? amount : '', form, why);
  }

  /** A refund's optional reason, and the note "other" needs. */
  #reason(asked: Asked): TemplateResult {
    const { text } = this;
    const missing = this.#errors.get(asked.id) === text('reasonNoteMissing');
    return html`<label>${text('reason')}<select part="reason-select" @change=${(event: Event) => {
      asked.reason = (event.target as HTMLSelectElement).value;
      this.console.update();
    }}>${['', ...REASONS].map(
      (reason) =>
        html`<option value=${reason} ?selected=${reason === (asked.reason ?? '')}>${text(reason ? (`reason${camel(reason)}` as ConsoleStringKey) : 'reasonNone')}</option>`,
    )}</select></label>
      ${
        asked.reason === 'other'
          ? html`<label>${text('reasonNote')}<input part="reason-note" maxlength="400" autocomplete="off" required
              aria-invalid=${missing} .value=${asked.note ?? ''} @input=${(event: Event) => (asked.note = (event.target as HTMLInputElement).value)} /></label>`
          : ''
      }`;
  }

  /** Resend the receipt: to the shopper, or to an e-mail or phone typed, whose refusal shows beside the field. */
  #receiptForm(item: TransactionDetails, busy: boolean): TemplateResult {
    const id = `receipt-${item.transaction_id}`;
    const refused = this.#errors.get(`${item.transaction_id} to`) ?? '';
    return html`<form class="action" @submit=${(event: SubmitEvent) => {
      event.preventDefault();
      const form = event.target as HTMLFormElement;
      const to = (new FormData(form).get('to') as string).trim();
      void this.act(item, 'receipt', '', form, to ? { [to.includes('@') ? 'email' : 'phone']: to } : {});
    }}>
      <label>${this.text('receiptTo')}<input part="receipt-input" name="to" maxlength="254" autocomplete="off"
        aria-invalid=${!!refused} aria-describedby=${id} /></label>
      <button part="action-button" data-action="receipt" aria-busy=${busy}>${this.text('receipt')}</button>
      <p part="receipt-error" class="error" id=${id}>${refused}</p>
    </form>`;
  }

  /** "Refund $11.50 of $11.50 to Visa •••• 4242?", with the action's own word to say yes and Cancel (or Escape). */
  #question(item: TransactionDetails): TemplateResult | string {
    const asked = this.#asked;
    if (asked?.id !== item.transaction_id) return '';
    const { action, amount } = asked;
    const money = (value: string) => formatMoney(value, this.console.locale);
    const held = Number(item.amount);
    const key =
      action === 'refund'
        ? 'confirmRefund'
        : action === 'capture'
          ? Number(amount) > held
            ? 'confirmRaise'
            : 'confirmCapture'
          : action === 'undo'
            ? item.voidable_until && Date.parse(item.voidable_until) > Date.now()
              ? 'confirmUndoVoid'
              : 'confirmUndoRefund'
            : action === 'void'
              ? 'confirmVoid'
              : 'confirmRelease';
    // Undo refunds what is left; a void and a release concern the whole amount.
    const shown =
      action === 'undo' && key === 'confirmUndoRefund'
        ? item.refundable_amount
        : action === 'refund' || action === 'capture'
          ? amount
          : item.amount;
    const question = this.text(key, {
      amount: money(shown),
      of: money(action === 'refund' ? item.refundable_amount : item.amount),
      card: cardOf(item),
    });
    const id = `confirm-${item.transaction_id}`;
    return html`<div part="confirm" class="actions" role="group" aria-labelledby=${id} @keydown=${(
      event: KeyboardEvent,
    ) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      this.#cancel();
    }}>
      <p id=${id} tabindex="-1">${question}</p>
      ${action === 'refund' ? this.#reason(asked) : ''}
      <button part="confirm-button" type="button" data-action="confirm" @click=${() => this.#confirm(item, asked)}
        >${this.text(action === 'undo' ? (key === 'confirmUndoVoid' ? 'void' : 'refund') : action)}</button>
      <button part="cancel-button" type="button" @click=${() => this.#cancel()}>${this.text('cancel')}</button>
    </div>`;
  }
}
