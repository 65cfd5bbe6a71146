import {
  html,
  LitElement,
  render,
  type CSSResultGroup,
  type PropertyDeclarations,
  type PropertyValues,
  type TemplateResult,
} from 'lit-element';
import { isServer } from 'lit-html/is-server.js';
import { Task } from '@lit/task';
import { resolveConfig, type ResolvedConfig } from '../config.ts';
import { getSettings, WidgetNetworkError } from '../widget-api.ts';
import { WidgetError } from '../shared/errors.ts';
import { formatMoney, interpolate, isAmount, resolveLocale } from '../shared/format.ts';
import { loadTexts, textsIn, translatedLanguage } from '../shared/i18n.ts';
import type { ElementTexts } from '../locales/locale-texts.ts';
import { styles } from '../shared/styles.ts';

/** Texts more than one element shows; each element's own table repeats them, so `strings` replaces them per element. */
export const commonStrings = {
  invalidAmount: '"{amount}" is not a price: set amount to a number such as 10.00.',
  networkError: 'Could not reach the payment service. Try again.',
  cspError: 'This page cannot reach the payment service. Please let the shop know.',
} as const;

type CommonKey = keyof typeof commonStrings;

/**
 * What every Paykit element shares: `public-key` and `base-url` (which win over the script tag and
 * configure()), `locale` (texts in English, Spanish, French or German; amounts and dates through Intl), `strings`
 * (replacements for any text), `theme`, and its state, announced in a polite status line and an alert line.
 */
export abstract class PaykitElement<K extends string> extends LitElement {
  static override styles: CSSResultGroup = styles;

  static override properties: PropertyDeclarations = {
    publicKey: { attribute: 'public-key' },
    baseUrl: { attribute: 'base-url' },
    locale: {},
    theme: {},
    strings: { attribute: false },
  };

  /** The merchant's public key (`pk_…`); overrides the script tag and configure(). */
  declare publicKey?: string;

  /** The payment service's origin; overrides the script tag and configure(). */
  declare baseUrl?: string;

  /**
   * BCP 47 locale of the texts (English, Spanish, French or German; others get English) and of amounts and dates;
   * default: the document's language, else en-US.
   */
  declare locale?: string;

  /**
   * `light`, `dark`, or `auto` (the visitor's system setting). Unset, the element follows the page's
   * `color-scheme`: `dark` is dark, `light dark` follows the system, anything else is light.
   */
  declare theme?: 'light' | 'dark' | 'auto';

  /** Replacements for any visible text, by key; `{name}` placeholders are filled in. */
  declare strings: Partial<Record<K, string>>;

  constructor() {
    super();
    this.strings = {};
  }

  /** The text the element shows unless `strings` or its language replaces it. */
  protected abstract readonly defaultStrings: Readonly<Record<K, string>>;

  /** Which element's texts the language modules hold for this one. */
  protected abstract readonly textsName: ElementTexts;

  /** The current state, shown to page CSS as a custom state, e.g. `pay-button:state(loading)`. */
  protected abstract get phase(): string;

  #internals?: ElementInternals;
  /** The texts of the element's language, when it is not English and they have arrived. */
  #texts?: Readonly<Record<string, string>>;
  /** The system's dark mode, watched while the element is on the page. */
  #systemDark?: MediaQueryList;
  #schemeChanged = () => this.requestUpdate();

  override connectedCallback(): void {
    super.connectedCallback();
    if (isServer) return;
    this.#systemDark ??= matchMedia('(prefers-color-scheme: dark)');
    this.#systemDark.addEventListener('change', this.#schemeChanged);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#systemDark?.removeEventListener('change', this.#schemeChanged);
  }

  /** `dark` when the element shows its dark colours, else empty: the class of what it renders (see styles.ts). */
  protected scheme = '';

  /** True when the element shows its dark colours: its `theme`, else the page's `color-scheme` (see `theme`). */
  get #dark(): boolean {
    if (isServer || !this.isConnected) return false;
    const theme = this.theme;
    if (theme === 'light' || theme === 'dark') return theme === 'dark';
    // `color-scheme` is inherited: the host's is the page's, unless the page set one on the element itself.
    const scheme = theme === 'auto' ? 'light dark' : getComputedStyle(this).colorScheme;
    return /\bdark\b/.test(scheme) && (!/\blight\b/.test(scheme) || !!this.#systemDark?.matches);
  }

  /** The status line (polite) and the error line (an alert); empty lines take no room. */
  protected lines(status: string, error: string, part = 'status'): TemplateResult {
    return html`<p part=${part} data-state=${this.phase} aria-live="polite">${status}</p>
      <p part="error" class="error" role="alert">${error}</p>`;
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    this.scheme = this.#dark ? 'dark' : '';
    const language = translatedLanguage(resolveLocale(this.locale));
    this.#texts = language ? textsIn(language, this.textsName) : undefined;
    if (language && !this.#texts)
      loadTexts(language).then(
        () => this.requestUpdate(),
        () => {},
      );
  }

  protected override update(changed: PropertyValues): void {
    // Markup from a server (declarative shadow DOM) is hydrated on the first update, which fails when another
    // version of Paykit rendered it (its templates differ). Render afresh then, rather than stay inert.
    const serverRendered = !this.hasUpdated && this.renderRoot.firstChild !== null;
    try {
      super.update(changed);
    } catch (error) {
      if (!serverRendered) throw error;
      console.warn(
        `Paykit: <${this.localName}> could not keep its server-rendered markup, so it rendered again.`,
        error,
      );
      for (const node of Array.from(this.renderRoot.childNodes)) if (node.nodeName !== 'STYLE') node.remove();
      render(this.render(), this.renderRoot, this.renderOptions);
    }
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

  /** `strings`' text for `key`, else the language's; undefined when neither has one. */
  protected ownText(key: string): string | undefined {
    return this.strings?.[key as K] ?? this.#texts?.[key];
  }

  protected t(key: K, values?: Record<string, string | number>): string {
    return interpolate(this.ownText(key) ?? this.defaultStrings[key], values);
  }

  /** Resolves once the texts of the element's language are there, or could not come (English stays then). */
  protected async textsArrived(): Promise<void> {
    const language = translatedLanguage(resolveLocale(this.locale));
    if (language) await loadTexts(language).catch(() => {});
  }

  /**
   * A failure as the payer reads it. A `csp` refusal's fix (the directive and the origin to add) is for the page's
   * developer: it goes to the console and the event's `developerMessage`, and the payer reads a short sentence.
   */
  protected forShopper(error: WidgetError): WidgetError {
    if (error.code !== 'csp') return error;
    console.error(error.message);
    return new WidgetError(this.t('cspError' as K), 'csp', error.message);
  }

  protected money(amount: string | number): string {
    return formatMoney(amount, resolveLocale(this.locale));
  }
}

export type Theme = NonNullable<PaykitElement<string>['theme']>;

/** The label the service reports for a merchant who configured none: the element says it in its own language. */
const DEFAULT_BUTTON_LABEL = 'Pay';

/**
 * The two buttons: a real <button> that acts with the merchant's public key and an amount, and shows the
 * merchant's widget settings (label, colours).
 */
export abstract class PaykitButtonElement<K extends string> extends PaykitElement<K | CommonKey> {
  static override properties: PropertyDeclarations = {
    amount: {},
    orderId: { attribute: 'order-id' },
    label: {},
    disabled: { type: Boolean },
  };

  /** Decimal text in US dollars, e.g. "10.00". */
  declare amount?: string;

  /** The merchant's order reference; the service makes one when absent. */
  declare orderId?: string;

  /** The button's whole text, replacing the default and the merchant's configured label. */
  declare label?: string;

  /** The button cannot be pressed (nor focused), like a disabled native button. */
  declare disabled: boolean;

  constructor() {
    super();
    this.disabled = false;
  }

  /**
   * The merchant's widget settings, asked again when the key or the service changes. Cosmetic, so a failure
   * (or an incomplete configuration, reported when the payer acts) leaves the defaults. A task runs in the
   * browser only: server rendering never reaches the network.
   */
  protected readonly settings = new Task(this, {
    task: ([publicKey, baseUrl]: [string | undefined, string | undefined]) =>
      getSettings(resolveConfig({ publicKey, baseUrl })),
    args: () => [this.publicKey, this.baseUrl] as [string | undefined, string | undefined],
  });

  /** The label the merchant configured for the widgets, if any. */
  protected get merchantLabel(): string | undefined {
    const label = this.settings.value?.button_label;
    return label && label !== DEFAULT_BUTTON_LABEL ? label : undefined;
  }

  protected abstract buttonText(): string;

  /** The button's action; not called while the element is busy. */
  protected abstract act(): void;

  /** True while the button must not act again. */
  protected get busy(): boolean {
    return this.phase === 'loading';
  }

  /** The amount and configuration checked before any call; throws a WidgetError whose message says what to fix. */
  protected checkedConfig(): ResolvedConfig {
    if (!isAmount(this.amount))
      throw new WidgetError(this.t('invalidAmount', { amount: this.amount ?? '' }), 'invalid_request');
    return resolveConfig(this);
  }

  /**
   * What to tell the payer about a failed call. A write that got no answer at all is often one the browser
   * refused to send (its CORS preflight failed, as for an unknown public key or a page the merchant does not
   * allow); the settings read needs no preflight, so its answer says why when it can.
   */
  protected async failure(error: unknown, config: ResolvedConfig): Promise<WidgetError> {
    // A call can fail before the language's texts have arrived: the payer still reads it in their language.
    await this.textsArrived();
    if (error instanceof WidgetNetworkError && error.code === 'network') {
      error = await getSettings(config).then(
        () => error,
        (reason: unknown) => reason,
      );
      if (error instanceof WidgetNetworkError && error.code === 'network')
        return new WidgetError(this.t('networkError'), 'network');
    }
    return error instanceof WidgetError
      ? this.forShopper(error)
      : new WidgetError(String((error as Error)?.message ?? error), 'service_error');
  }

  /** The status line and the error line of the current state. */
  protected abstract renderLines(): TemplateResult;

  /** What goes beside the button (the QR code) and after everything (the dialog). */
  protected renderExtras(): unknown[] {
    return [];
  }

  override render(): TemplateResult {
    const busy = this.busy;
    const { primary_color: primary, text_color: text } = this.settings.value ?? {};
    const [beside, after] = this.renderExtras();
    // The merchant's colours as private tokens of the button; the page's `--paykit-*` still win.
    const colors = `${primary ? `--_primary:var(--paykit-primary-color,${primary});` : ''}${text ? `--_on-primary:var(--paykit-on-primary-color,${text})` : ''}`;
    return html`<div part="base" class=${this.scheme}>
        <button part="button" type="button" .style=${colors} ?disabled=${this.disabled} aria-disabled=${busy} aria-busy=${busy}
          @click=${() => this.busy || this.disabled || this.act()}
          ><span part="label">${this.buttonText()}</span></button
        >
        ${beside} ${this.renderLines()}
      </div>
      ${after}`;
  }
}
