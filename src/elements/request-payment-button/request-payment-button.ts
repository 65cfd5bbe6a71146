import type { PropertyDeclarations } from '../../shared/reactive-element.ts';
import { publicKeyCall, type PaymentRequestSent } from '../../widget-api.ts';
import { emit } from '../../shared/events.ts';
import { isAmount } from '../../shared/format.ts';
import { normalizePhone } from '../../shared/phone.ts';
import { commonStrings, PaykitButtonElement } from '../../shared/paykit-element.ts';

export const requestPaymentButtonStrings = {
  ...commonStrings,
  label: 'Request {amount}',
  labelWithoutAmount: 'Request payment',
  loading: 'Sending the payment request…',
  sent: 'Payment request sent to {phone}.',
  missingPhone: 'Set recipient-phone to the payer’s mobile number.',
  invalidPhone: '"{phone}" is not a phone number: use "+" and the country code, or ten digits, e.g. +14155550123.',
} as const;

export type RequestPaymentButtonStringKey = keyof typeof requestPaymentButtonStrings;

/**
 * Sends the payer a pay link by SMS: checks the phone number the way the service does, then asks the
 * service to create the payment request.
 *
 * @fires request-sent - The service created the request and sent the SMS. `detail`: `{order_id, pay_link}`.
 * @fires request-error - The phone, amount or configuration is wrong, or the service refused. `detail`: `{message}`.
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
 *
 * @cssstate idle - Nothing sent yet.
 * @cssstate loading - Sending.
 * @cssstate sent - The request was sent.
 * @cssstate error - The error line says what went wrong.
 * @tagname request-payment-button
 */
export class RequestPaymentButton extends PaykitButtonElement<RequestPaymentButtonStringKey> {
  static override properties: PropertyDeclarations = {
    recipientPhone: { attribute: 'recipient-phone' },
  };

  /**
   * The payer's mobile number: "+" and 8–15 digits, or ten North American digits; spaces, dots, dashes and
   * parentheses are ignored.
   */
  declare recipientPhone?: string;

  protected override readonly defaultStrings = requestPaymentButtonStrings;
  protected override readonly errorEvent = 'request-error';

  #abort?: AbortController;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#abort?.abort();
    if (this.phase === 'loading') this.show('idle');
  }

  protected override buttonText(): string {
    return this.label || (isAmount(this.amount) ? this.t('label', { amount: this.money(this.amount) }) : this.t('labelWithoutAmount'));
  }

  protected override async act(): Promise<void> {
    const raw = this.recipientPhone?.trim();
    const phone = normalizePhone(raw ?? '');
    if (!phone) return this.fail(this.t(raw ? 'invalidPhone' : 'missingPhone', { phone: raw! }));
    const config = this.checked();
    if (!config) return;
    this.show('loading', this.t('loading'));
    const abort = (this.#abort = new AbortController());
    const body = { amount: this.amount!.trim(), recipient_phone: phone, order_id: this.orderId || undefined };
    try {
      const { order_id, pay_link } = await publicKeyCall<PaymentRequestSent>(config, 'payment-requests', body, abort.signal);
      this.show('sent', this.t('sent', { phone }));
      emit(this, 'request-sent', { order_id, pay_link });
    } catch (error) {
      const message = await this.describeFailure(error as Error, config);
      if (!abort.signal.aborted) this.fail(message);
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'request-payment-button': RequestPaymentButton;
  }
}
