/**
 * The console's payouts (issue 45), imported by `<transactions-table>` only when its session grants `payouts`, so pages
 * without them load none of it: the balance, the payouts newest first, each opening the ledger entries it paid out
 * (they add up to its amount), and their CSV.
 */
import type { TemplateResult } from 'lit-element';
import type { PayoutEntriesAnswer, WidgetPayoutsAnswer } from '../../../contract/wire-types.ts';
import { consoleCalls } from '../../widget-console-api.ts';
import type { ConsoleHost } from './console-host.ts';

type Payouts = WidgetPayoutsAnswer['data'];
type Payout = Payouts['items'][number];
type Entries = PayoutEntriesAnswer['data'];

/** The view's texts (English); `strings` and the languages replace them by the same keys. */
const payoutsStrings = {
  payouts: 'Balance and payouts',
  available: 'Available',
  pending: 'Pending',
  loadingPayouts: 'Loading the payouts…',
  noPayouts: 'No payouts yet: available money is paid out each business day.',
  payoutMade: 'Made',
  payoutAmount: 'Amount',
  payoutStatus: 'Status',
  payoutArrives: 'Arrives',
  payoutPending: 'Pending',
  payoutInTransit: 'In transit',
  payoutPaid: 'Paid',
  payoutFailed: 'Failed',
  morePayouts: 'More payouts',
  entriesOf: 'Entries of the payout of {amount}',
  moreEntries: 'More entries',
  downloadCsv: 'Download CSV',
  entrySale: 'Sale',
  entryFee: 'Fee',
  entryRefund: 'Refund',
  entryVoid: 'Void',
  entryFeeRefund: 'Fee returned',
  entryAchReturn: 'ACH return',
} as const;

export type PayoutsStringKey = keyof typeof payoutsStrings;

const PAGE = 10;
const camel = (value: string) => value.replace(/(^|_)(\w)/g, (_, __, letter: string) => letter.toUpperCase());

export class PayoutsView {
  readonly console: ConsoleHost;
  #calls: ReturnType<typeof consoleCalls>;
  #expanded = false;
  #payouts?: Payouts;
  #error = '';
  /** The payout whose entries are open, and each payout's entries loaded so far. */
  #open = '';
  #entries = new Map<string, Entries>();

  constructor(console: ConsoleHost) {
    this.console = console;
    this.#calls = consoleCalls(console.lib);
  }

  text = (key: PayoutsStringKey, values?: Record<string, string | number>): string =>
    this.console.lib.interpolate(this.console.ownText(key) ?? payoutsStrings[key], values);

  /** Runs a call with the session token; what went wrong is shown in the view's alert. */
  async #load(call: (baseUrl: string, token: string) => Promise<void>): Promise<void> {
    this.#error = '';
    this.console.update();
    await this.console.withToken(call).catch((error: Error) => (this.#error = error.message));
    this.console.update();
  }

  #more(): Promise<void> {
    const cursor = this.#payouts?.next_cursor;
    return this.#load(async (baseUrl, token) => {
      const page = await this.#calls.payouts(baseUrl, token, { perPage: PAGE, cursor });
      this.#payouts = cursor && this.#payouts ? { ...page, items: [...this.#payouts.items, ...page.items] } : page;
    });
  }

  async #toggle(): Promise<void> {
    this.#expanded = !this.#expanded;
    if (this.#expanded) await this.#more();
    else this.console.update();
  }

  async #openEntries(id: string, more = false): Promise<void> {
    this.#open = this.#open === id && !more ? '' : id;
    const loaded = this.#entries.get(id);
    if (!this.#open || (loaded && !more)) return this.console.update();
    await this.#load(async (baseUrl, token) => {
      const page = await this.#calls.payoutEntries(baseUrl, token, id, {
        perPage: 50,
        cursor: more ? loaded?.next_cursor : undefined,
      });
      this.#entries.set(id, more && loaded ? { ...page, items: [...loaded.items, ...page.items] } : page);
    });
  }

  async #download(id: string): Promise<void> {
    const lang = this.console.locale.slice(0, 2);
    await this.#load(async (baseUrl, token) =>
      this.#calls.save(
        await this.#calls.payoutCsv(baseUrl, token, id, ['es', 'fr', 'de'].includes(lang) ? lang : 'en'),
      ),
    );
  }

  /** Escape in a payout's entries closes them and gives focus back to its button. */
  #closeOnEscape(event: KeyboardEvent): void {
    if (event.key !== 'Escape' || !this.#open) return;
    event.preventDefault();
    const id = this.#open;
    this.#open = '';
    this.console.update();
    void (this.console.host as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete.then(() =>
      this.console.host.shadowRoot?.querySelector<HTMLElement>(`[aria-controls="entries-${CSS.escape(id)}"]`)?.focus(),
    );
  }

  render(): TemplateResult {
    const { html } = this.console.lib;
    // Sections, not divs: the table's divs are framed boxes, and these sit inside its frame.
    return html`<section part="payouts">
      <button part="payouts-button" id="payouts-toggle" type="button" aria-expanded=${this.#expanded} aria-controls="payouts-panel" @click=${() => this.#toggle()}>${this.text('payouts')}</button>
      <section id="payouts-panel" ?hidden=${!this.#expanded}>${this.#expanded ? this.#panel() : ''}</section>
    </section>`;
  }

  #panel(): TemplateResult {
    const { html, formatMoney } = this.console.lib;
    const { locale } = this.console;
    const money = (amount: string) => formatMoney(amount, locale);
    const payouts = this.#payouts;
    const status = !payouts ? this.text('loadingPayouts') : payouts.items.length === 0 ? this.text('noPayouts') : '';
    return html`${
      payouts
        ? html`<dl part="balance"><dt>${this.text('available')}</dt><dd>${money(payouts.balance.available)}</dd><dt>${this.text('pending')}</dt><dd>${money(payouts.balance.pending)}</dd></dl>`
        : ''
    }
      <p role="status">${status}</p>
      <p class="error" role="alert">${this.#error}</p>
      ${payouts?.items.length ? this.#table(payouts.items) : ''}
      ${payouts?.has_more ? html`<button part="more-button" type="button" @click=${() => this.#more()}>${this.text('morePayouts')}</button>` : ''}`;
  }

  #table(items: Payout[]): TemplateResult {
    const { html, formatMoney, formatDateTime } = this.console.lib;
    const { locale } = this.console;
    return html`<div role="region" aria-labelledby="payouts-toggle" tabindex="0">
      <table part="payouts-table">
        <thead><tr>${(['payoutMade', 'payoutAmount', 'payoutStatus', 'payoutArrives'] as const).map((key) => html`<th>${this.text(key)}</th>`)}</tr></thead>
        <tbody @keydown=${(event: KeyboardEvent) => this.#closeOnEscape(event)}>${items.map((payout) => {
          const id = payout.payout_id;
          const open = this.#open === id;
          return html`<tr part="payout-row">
              <td><button part="details-button payout-button" aria-expanded=${open} aria-controls=${`entries-${id}`} @click=${() => this.#openEntries(id)}
                ><time datetime=${payout.created_date}>${formatDateTime(payout.created_date, locale)}</time></button></td>
              <td>${formatMoney(payout.amount, locale)}</td>
              <td>${this.text(`payout${camel(payout.status)}` as PayoutsStringKey)}${payout.failure_message ? html`<br /><span>${payout.failure_message}</span>` : ''}</td>
              <td><time datetime=${payout.arrival_date}>${payout.arrival_date}</time></td>
            </tr>${open ? html`<tr part="payout-entries" id=${`entries-${id}`}><td colspan="4">${this.#entriesOf(payout)}</td></tr>` : ''}`;
        })}</tbody>
      </table>
    </div>`;
  }

  #entriesOf(payout: Payout): TemplateResult {
    const { html, formatMoney } = this.console.lib;
    const { locale } = this.console;
    const entries = this.#entries.get(payout.payout_id);
    const id = payout.payout_id;
    return html`<p class="heading">${this.text('entriesOf', { amount: formatMoney(payout.amount, locale) })}</p>
      ${
        entries
          ? html`<ul part="entries">${entries.items.map((entry) => html`<li>${this.text(`entry${camel(entry.type)}` as PayoutsStringKey)} · ${formatMoney(entry.net, locale)} · ${entry.order_id || entry.transaction_id}</li>`)}</ul>
          ${entries.has_more ? html`<button part="more-button" type="button" @click=${() => this.#openEntries(id, true)}>${this.text('moreEntries')}</button>` : ''}`
          : html`<p>${this.text('loadingPayouts')}</p>`
      }
      <button part="csv-button" type="button" @click=${() => this.#download(id)}>${this.text('downloadCsv')}</button>`;
  }
}
