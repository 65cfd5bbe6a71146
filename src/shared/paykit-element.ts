import { LitElement, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { resolveConfig, type ResolvedConfig } from '../config.ts';
import { getSettings, WidgetApiError, WidgetNetworkError, type WidgetSettings } from '../widget-api.ts';
import { formatMoney, interpolate, resolveLocale } from './format.ts';

/**
 * What every Paykit element shares: `public-key` and `base-url` (which win over the script tag and
 * configure()), `locale`, and `strings`, the replaceable text of everything the element shows.
 */
export abstract class PaykitElement<K extends string> extends LitElement {
  /** The merchant's public key (`pk_…`); overrides the script tag and configure(). */
  @property({ attribute: 'public-key' }) publicKey?: string;

  /** The payment service's origin; overrides the script tag and configure(). */
  @property({ attribute: 'base-url' }) baseUrl?: string;

  /** BCP 47 locale for amounts and dates; default: the document's language, else en-US. */
  @property() locale?: string;

  /** Replacements for any visible text, by key; `{name}` placeholders are filled in. */
  @property({ attribute: false }) strings: Partial<Record<K, string>> = {};

  /** The text the element shows unless `strings` replaces it. */
  protected abstract readonly defaultStrings: Readonly<Record<K, string>>;

  private internals?: ElementInternals;

  /**
   * Shows the element's state to page CSS as a custom state, e.g. `pay-button:state(loading)`: the state
   * lives in the shadow root, and an attribute on the host would be the page's to own.
   */
  protected reflectState(current: string): void {
    if (!this.internals) {
      try {
        this.internals = this.attachInternals();
      } catch {
        return;
      }
    }
    const states = this.internals.states;
    if (!states) return;
    for (const state of Array.from(states)) if (state !== current) states.delete(state);
    states.add(current);
  }

  protected get resolvedLocale(): string {
    return resolveLocale(this.locale);
  }

  protected t(key: K, values?: Record<string, string | number>): string {
    return interpolate(this.strings[key] ?? this.defaultStrings[key], values);
  }

  protected money(amount: string | number): string {
    return formatMoney(amount, this.resolvedLocale);
  }

  /** The element's service and key; throws PaykitConfigError with what to add when either is missing. */
  protected resolvedConfig(): ResolvedConfig {
    return resolveConfig({ publicKey: this.publicKey, baseUrl: this.baseUrl });
  }
}

/** Elements that act with the public key, and so also show the merchant's widget settings (label, colours). */
export abstract class PaykitPublicKeyElement<K extends string> extends PaykitElement<K | 'networkError'> {
  /** The merchant's widget settings, once the service has answered; cosmetic, so a failure is ignored. */
  @state() protected settings?: WidgetSettings;

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    if (!this.hasUpdated || changed.has('publicKey') || changed.has('baseUrl')) this.loadSettings();
  }

  private loadSettings(): void {
    let config: ResolvedConfig;
    try {
      config = this.resolvedConfig();
    } catch {
      return; // Reported when the payer acts, not on load.
    }
    getSettings(config).then(
      (settings) => {
        const now = this.safeConfig();
        if (now && now.baseUrl === config.baseUrl && now.publicKey === config.publicKey) this.settings = settings;
      },
      (error: unknown) => {
        if (!(error instanceof WidgetNetworkError)) console.warn('Paykit: widget settings unavailable:', error);
      },
    );
  }

  private safeConfig(): ResolvedConfig | undefined {
    try {
      return this.resolvedConfig();
    } catch {
      return undefined;
    }
  }

  /** The merchant's colours as private tokens for the main control; the page's `--paykit-*` still win. */
  protected settingsColors(): Record<string, string> {
    const colors: Record<string, string> = {};
    const valid = (value: string | null | undefined): value is string =>
      !!value && typeof CSS !== 'undefined' && CSS.supports('color', value);
    if (valid(this.settings?.primary_color)) colors['--_primary'] = `var(--paykit-primary-color, ${this.settings.primary_color})`;
    if (valid(this.settings?.text_color)) colors['--_on-primary'] = `var(--paykit-on-primary-color, ${this.settings.text_color})`;
    return colors;
  }

  /**
   * What to tell the payer about a failed call. A write that got no answer at all is often one the browser
   * refused to send (its CORS preflight failed, as for an unknown public key or a page the merchant does not
   * allow); the settings read needs no preflight, so its answer says why when it can.
   */
  protected async describeFailure(error: unknown, config: ResolvedConfig): Promise<string> {
    if (!(error instanceof WidgetNetworkError)) return error instanceof Error ? error.message : String(error);
    try {
      await getSettings(config);
    } catch (reason) {
      if (reason instanceof WidgetApiError && !(reason instanceof WidgetNetworkError)) return reason.message;
    }
    return this.t('networkError');
  }
}
