import { html, type TemplateResult } from 'lit/html.js';
import { resolveConfig, type ResolvedConfig } from '../config.ts';
import { getSettings, WidgetNetworkError, type WidgetSettings } from '../widget-api.ts';
import { emit } from './events.ts';
import { formatMoney, interpolate, isAmount, resolveLocale } from './format.ts';
import { ReactiveElement, type PropertyDeclarations, type PropertyValues } from './reactive-element.ts';
import { styles } from './styles.ts';

/** Texts more than one element shows; each element's own table repeats them, so `strings` replaces them per element. */
export const commonStrings = {
  invalidAmount: '"{amount}" is not a price: set amount to a number such as 10.00.',
  networkError: 'Could not reach the payment service. Try again.',
} as const;

type CommonKey = keyof typeof commonStrings;

/**
 * What every Paykit element shares: `public-key` and `base-url` (which win over the script tag and
 * configure()), `locale`, `strings` (the replaceable text of everything the element shows), and its state,
 * announced in a polite status line and an alert line for errors.
 */
export abstract class PaykitElement<K extends string> extends ReactiveElement {
  static override styles = styles;

  static override properties: PropertyDeclarations = {
    publicKey: { attribute: 'public-key' },
    baseUrl: { attribute: 'base-url' },
    locale: {},
    strings: { attribute: false },
  };

  /** The merchant's public key (`pk_…`); overrides the script tag and configure(). */
  declare publicKey?: string;

  /** The payment service's origin; overrides the script tag and configure(). */
  declare baseUrl?: string;

  /** BCP 47 locale for amounts and dates; default: the document's language, else en-US. */
  declare locale?: string;

  /** Replacements for any visible text, by key; `{name}` placeholders are filled in. */
  strings: Partial<Record<K, string>> = {};

  /** The text the element shows unless `strings` replaces it. */
  protected abstract readonly defaultStrings: Readonly<Record<K, string>>;

  /** The event that reports a failure. */
  protected abstract readonly errorEvent: 'pay-error' | 'request-error' | 'transactions-error';

  /** The current state, shown to page CSS as a custom state, e.g. `pay-button:state(loading)`. */
  protected phase = 'idle';

  #status = '';
  #error = '';
  #internals?: ElementInternals;

  /** Shows a state with its status line and error line. */
  protected show(phase: string, status = '', error = ''): void {
    this.phase = phase;
    this.#status = status;
    this.#error = error;
    this.requestUpdate();
  }

  protected fail(message: string): void {
    this.show('error', '', message);
    emit(this, this.errorEvent, { message });
  }

  /** The status line (polite, `status` text unless given) and the error line (an alert); empty lines take no room. */
  protected lines(status = this.#status, part = 'status'): TemplateResult {
    return html`<p part=${part} data-state=${this.phase} aria-live="polite">${status}</p><p part="error" class="error" role="alert">${this.#error}</p>`;
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    // A custom state, not a host attribute: the host's attributes are the page's to own.
    try {
      const states = (this.#internals ??= this.attachInternals()).states;
      states.clear();
      states.add(this.phase);
    } catch {
      // A browser without custom states: page CSS cannot see the state, nothing else changes.
    }
  }

  protected t(key: K, values?: Record<string, string | number>): string {
    return interpolate(this.strings?.[key] ?? this.defaultStrings[key], values);
  }

  protected money(amount: string | number): string {
    return formatMoney(amount, resolveLocale(this.locale));
  }
}

/**
 * The two buttons: a real <button> that acts with the merchant's public key and an amount, and shows the
 * merchant's widget settings (label, colours).
 */
export abstract class PaykitButtonElement<K extends string> extends PaykitElement<K | CommonKey> {
  static override properties: PropertyDeclarations = {
    amount: {},
    orderId: { attribute: 'order-id' },
    label: {},
  };

  /** Decimal text in US dollars, e.g. "10.00". */
  declare amount?: string;

  /** The merchant's order reference; the service makes one when absent. */
  declare orderId?: string;

  /** The button's whole text, replacing the default and the merchant's configured label. */
  declare label?: string;

  /** The merchant's widget settings, once the service has answered; cosmetic, so a failure is ignored. */
  protected settings?: WidgetSettings;

  #settingsAsked = 0;

  protected abstract buttonText(): string;

  /** The button's action; not called while the element is busy. */
  protected abstract act(): void;

  /** The amount and configuration checked before any call; on a problem it fails and answers undefined. */
  protected checked(): ResolvedConfig | undefined {
    try {
      if (!isAmount(this.amount)) throw new Error(this.t('invalidAmount', { amount: this.amount ?? '' }));
      return resolveConfig(this);
    } catch (error) {
      this.fail((error as Error).message);
    }
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (this.hasUpdated && !changed.has('publicKey') && !changed.has('baseUrl')) return;
    const asked = ++this.#settingsAsked;
    try {
      getSettings(resolveConfig(this)).then((settings) => {
        if (asked === this.#settingsAsked) {
          this.settings = settings;
          this.requestUpdate();
        }
      }, () => {});
    } catch {
      // Incomplete configuration: reported when the payer acts, not on load.
    }
  }

  /**
   * What to tell the payer about a failed call. A write that got no answer at all is often one the browser
   * refused to send (its CORS preflight failed, as for an unknown public key or a page the merchant does not
   * allow); the settings read needs no preflight, so its answer says why when it can.
   */
  protected async describeFailure(error: Error, config: ResolvedConfig): Promise<string> {
    if (error instanceof WidgetNetworkError) {
      error = await getSettings(config).then(() => error, (reason: Error) => reason);
      if (error instanceof WidgetNetworkError) return this.t('networkError');
    }
    return error.message;
  }

  /** What goes beside the button (the QR code) and after everything (the dialog). */
  protected renderExtras(): unknown[] {
    return [];
  }

  get #busy(): boolean {
    return this.phase === 'loading' || this.phase === 'redirecting';
  }

  override render(): TemplateResult {
    const busy = this.#busy;
    const { primary_color: primary, text_color: text } = this.settings ?? {};
    const [beside, after] = this.renderExtras();
    // The merchant's colours as private tokens of the button; the page's `--paykit-*` still win.
    const colors = `${primary ? `--_primary:var(--paykit-primary-color,${primary});` : ''}${text ? `--_on-primary:var(--paykit-on-primary-color,${text})` : ''}`;
    return html`<div part="base"><button part="button" type="button" .style=${colors} aria-disabled=${busy} aria-busy=${busy}
@click=${() => this.#busy || this.act()}><span part="label">${this.buttonText()}</span></button>${beside}${this.lines()}</div>${after}`;
  }
}
