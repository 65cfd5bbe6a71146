import { html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { styleMap } from 'lit/directives/style-map.js';
import { createPaymentRequest } from '../../widget-api.ts';
import { emit } from '../../shared/events.ts';
import { isAmount } from '../../shared/format.ts';
import { normalizePhone } from '../../shared/phone.ts';
import { PaykitPublicKeyElement } from '../../shared/paykit-element.ts';
import { requestPaymentButtonStyles } from './request-payment-button.styles.ts';

export const requestPaymentButtonStrings = {
  label: 'Request {amount}',
  labelWithoutAmount: 'Request payment',
  loading: 'Sending the payment request…',
  sent: 'Payment request sent to {phone}.',
  missingPhone: 'Set recipient-phone to the payer’s mobile number, e.g. +14155550123.',
  invalidPhone: '"{phone}" is not a phone number: use "+" and the country code, or ten digits, e.g. +14155550123.',
  invalidAmount: 'The amount "{amount}" is not a price: set amount to a decimal number such as 10.00.',
  networkError: 'Could not reach the payment service. Check the connection and try again.',
} as const;

export type RequestPaymentButtonStringKey = keyof typeof requestPaymentButtonStrings;

type Phase = 'idle' | 'loading' | 'sent' | 'error';

/**
 * Sends the payer a pay link by SMS: checks the phone number the way the service does, then asks the
 * service to create the payment request.
 *
 * @fires request-sent - The service created the request and sent the SMS. `detail`: `{order_id, pay_link}`.
 * @fires request-error - The phone, amount or configuration is wrong, or the service refused. `detail`: `{message}`.
 *
 * @attr amount - Decimal text, e.g. "10.00" (US dollars).
 * @attr recipient-phone - The payer's mobile: "+" and 8–15 digits, or ten North American digits; spaces, dots, dashes and parentheses are ignored.
 * @attr order-id - The merchant's order reference; the service makes one when absent.
 * @attr label - The button's text; default "Request {amount}".
 * @attr locale - BCP 47 locale for amounts; default the document's language, else en-US.
 * @attr public-key - The merchant's public key; overrides the script tag and configure().
 * @attr base-url - The payment service's origin; overrides the script tag and configure().
 *
 * @csspart base - The wrapper.
 * @csspart button - The native <button>.
 * @csspart label - The text inside the button.
 * @csspart status - The polite live region with the current state.
 * @csspart error - The alert with what went wrong.
 *
 * @cssprop --paykit-primary-color - Button background.
 * @cssprop --paykit-on-primary-color - Button text colour.
 * @cssprop --paykit-error-color - The bar beside an error.
 * @cssprop --paykit-success-color - The bar beside the "sent" line.
 * @cssprop --paykit-focus-ring-color - Keyboard focus outline.
 * @cssprop --paykit-radius - Corner radius.
 * @cssprop --paykit-font-family - Font.
 * @cssprop --paykit-font-size - Base font size.
 * @cssprop --paykit-target-size - Minimum size of the button (44px).
 * @tagname request-payment-button
 */
export class RequestPaymentButton extends PaykitPublicKeyElement<RequestPaymentButtonStringKey> {
  static override styles = requestPaymentButtonStyles;

  /** Decimal text in US dollars, e.g. "10.00". */
  @property() amount?: string;

  /** The payer's mobile number. */
  @property({ attribute: 'recipient-phone' }) recipientPhone?: string;

  /** The merchant's order reference. */
  @property({ attribute: 'order-id' }) orderId?: string;

  /** The button's text. */
  @property() label?: string;

  protected override readonly defaultStrings = requestPaymentButtonStrings;

  @state() private phase: Phase = 'idle';
  @state() private statusText = '';
  @state() private errorText = '';

  private abort?: AbortController;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.abort?.abort();
    if (this.phase === 'loading') this.phase = 'idle';
  }

  private get buttonLabel(): string {
    if (this.label) return this.label;
    return isAmount(this.amount) ? this.t('label', { amount: this.money(this.amount) }) : this.t('labelWithoutAmount');
  }

  private async handleClick(): Promise<void> {
    if (this.phase === 'loading') return;
    const rawPhone = this.recipientPhone?.trim() ?? '';
    const phone = rawPhone ? normalizePhone(rawPhone) : null;
    if (!rawPhone) return this.fail(this.t('missingPhone'));
    if (!phone) return this.fail(this.t('invalidPhone', { phone: rawPhone }));
    if (!isAmount(this.amount)) return this.fail(this.t('invalidAmount', { amount: this.amount ?? '' }));
    let config;
    try {
      config = this.resolvedConfig();
    } catch (error) {
      return this.fail((error as Error).message);
    }

    this.phase = 'loading';
    this.statusText = this.t('loading');
    this.errorText = '';
    const abort = (this.abort = new AbortController());
    try {
      const sent = await createPaymentRequest(
        config,
        { amount: this.amount.trim(), recipient_phone: phone, order_id: this.orderId || undefined },
        abort.signal,
      );
      if (abort.signal.aborted) return;
      this.phase = 'sent';
      this.statusText = this.t('sent', { phone });
      emit(this, 'request-sent', { order_id: sent.order_id, pay_link: sent.pay_link });
    } catch (error) {
      if (abort.signal.aborted) return;
      const message = await this.describeFailure(error, config);
      if (!abort.signal.aborted) this.fail(message);
    }
  }

  private fail(message: string): void {
    this.phase = 'error';
    this.statusText = '';
    this.errorText = message;
    emit(this, 'request-error', { message });
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    this.reflectState(this.phase);
  }

  override render() {
    const busy = this.phase === 'loading';
    return html`<div part="base" class="base">
      <button
        part="button"
        class="button"
        type="button"
        style=${styleMap(this.settingsColors())}
        aria-disabled=${busy ? 'true' : 'false'}
        aria-busy=${busy ? 'true' : 'false'}
        @click=${this.handleClick}
      >
        ${busy ? html`<span class="spinner" aria-hidden="true"></span>` : nothing}
        ${this.phase === 'sent'
          ? html`<svg class="check" aria-hidden="true" viewBox="0 0 24 24" focusable="false"><path d="M5 12.5l4.5 4.5L19 7.5" stroke="currentColor" stroke-width="2.5" fill="none" stroke-linecap="round" stroke-linejoin="round" /></svg>`
          : nothing}
        <span part="label">${this.buttonLabel}</span>
      </button>
      <p part="status" class="status" data-state=${this.phase === 'sent' ? 'success' : this.phase} aria-live="polite">${this.statusText}</p>
      <p part="error" class="error" role="alert">${this.errorText}</p>
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'request-payment-button': RequestPaymentButton;
  }
}
