import type { PropertyDeclarations, TemplateResult } from 'lit-element';
import { initialState, Task } from '@lit/task';
import type { ResolvedConfig } from '../../config.ts';
import { publicKeyCall, type PaymentRequest, type PaymentRequestSent } from '../../widget-api.ts';
import { errorDetail, WidgetError } from '../../shared/errors.ts';
import { emit } from '../events.ts';
import { isAmount } from '../../shared/format.ts';
import { normalizePhone } from '../../../rules/phone.ts';
import { commonStrings, PaykitButtonElement } from '../paykit-element.ts';

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
 * @fires {CustomEvent<RequestSentDetail>} request-sent - The service created the request and sent the SMS. `detail`: `{order_id, pay_link}`.
 * @fires {CustomEvent<PaykitErrorDetail>} request-error - The phone, amount or configuration is wrong, or the service refused (e.g. too many texts to one phone). `detail`: `{code, message}`.
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
    // Redeclared for its type: each element's own keys.
    strings: { attribute: false },
  };

  /**
   * The payer's mobile number: "+" and 8–15 digits, or ten North American digits; spaces, dots, dashes and
   * parentheses are ignored.
   */
  declare recipientPhone?: string;

  /** Replacements for any visible text, by key (the keys of `requestPaymentButtonStrings`); `{name}` placeholders are filled in. */
  declare strings: Partial<Record<RequestPaymentButtonStringKey, string>>;

  protected override readonly defaultStrings = requestPaymentButtonStrings;

  protected override readonly textsName = 'requestPaymentButton';

  /**
   * Sending the request, run by the button: the phone, amount and configuration are checked first, and each
   * failure is the task's error, whose message the payer reads. Taking the element off the page stops it quietly.
   */
  #request = new Task(this, {
    autoRun: false,
    task: async (_args: [], { signal }) => {
      const raw = this.recipientPhone?.trim();
      const phone = normalizePhone(raw ?? '');
      if (!phone)
        throw new WidgetError(
          this.t(raw ? 'invalidPhone' : 'missingPhone', { phone: raw! }),
          raw ? 'invalid_request' : 'config',
        );
      const config: ResolvedConfig = this.checkedConfig();
      const body: PaymentRequest = {
        amount: this.amount!.trim(),
        recipient_phone: phone,
        order_id: this.orderId || undefined,
      };
      try {
        return { phone, ...(await publicKeyCall<PaymentRequestSent>(config, 'payment-requests', body, signal)) };
      } catch (error) {
        if (signal.aborted) return initialState;
        const failure = await this.failure(error, config);
        if (signal.aborted) return initialState;
        throw failure;
      }
    },
    onComplete: ({ order_id, pay_link }) => emit(this, 'request-sent', { order_id, pay_link }),
    onError: (error) => emit(this, 'request-error', errorDetail(error)),
  });

  protected override get phase(): 'idle' | 'loading' | 'sent' | 'error' {
    return (['idle', 'loading', 'sent', 'error'] as const)[this.#request.status];
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#request.abort();
  }

  protected override buttonText(): string {
    return (
      this.label ||
      (isAmount(this.amount) ? this.t('label', { amount: this.money(this.amount) }) : this.t('labelWithoutAmount'))
    );
  }

  protected override act(): void {
    void this.#request.run([]);
  }

  protected override renderLines(): TemplateResult {
    return this.#request.render({
      initial: () => this.lines('', ''),
      pending: () => this.lines(this.t('loading'), ''),
      complete: ({ phone }) => this.lines(this.t('sent', { phone }), ''),
      error: (error) => this.lines('', (error as Error).message),
    });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'request-payment-button': RequestPaymentButton;
  }
}
