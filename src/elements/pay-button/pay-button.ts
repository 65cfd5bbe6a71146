import { html, nothing, type PropertyValues } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { styleMap } from 'lit/directives/style-map.js';
import type { ResolvedConfig } from '../../config.ts';
import { createPayLink, getPayLink, type PayLink } from '../../widget-api.ts';
import { emit, type PaySuccessDetail } from '../../shared/events.ts';
import { isAmount } from '../../shared/format.ts';
import { ModalController, renderModal } from '../../shared/dialog.ts';
import { PaykitPublicKeyElement } from '../../shared/paykit-element.ts';
import { qrDataUrl } from '../../shared/qr.ts';
import { payButtonStyles } from './pay-button.styles.ts';

export type PayMode = 'dialog' | 'popup' | 'redirect';

export const payButtonStrings = {
  /** `{verb}` is the merchant's configured button label ("Pay" unless set), `{amount}` the price. */
  label: '{verb} {amount}',
  verb: 'Pay',
  loading: 'Preparing your payment…',
  open: 'Complete the payment in the payment window.',
  redirecting: 'Taking you to the payment page…',
  success: 'Payment received. Thank you!',
  pending: 'Payment submitted. It completes once the bank confirms it.',
  cancelled: 'Payment cancelled. Nothing was charged.',
  declined: 'The payment was declined. Try again with another card.',
  expired: 'The payment link expired before it was paid. Try again for a new one.',
  invalidAmount: 'The amount "{amount}" is not a price: set amount to a decimal number such as 10.00.',
  networkError: 'Could not reach the payment service. Check the connection and try again.',
  dialogTitle: 'Pay {amount}',
  close: 'Close',
  frameTitle: 'Secure payment form',
  newWindow: 'Open the payment page in a new window',
  qrAlt: 'QR code: scan to pay {amount} on a phone',
  qrLink: 'Open the payment page',
} as const;

export type PayButtonStringKey = keyof typeof payButtonStrings;

type Phase = 'idle' | 'loading' | 'open' | 'redirecting' | 'success' | 'error';

/** The pay link of this button, reused while it is open so a second try keeps the same order. */
interface LinkInUse {
  key: string;
  config: ResolvedConfig;
  link: PayLink;
}

/** One opening of the payment window: listening for its message and polling until it ends. */
interface Attempt {
  use: LinkInUse;
  mode: 'dialog' | 'popup';
  popup: Window | null;
  timer?: ReturnType<typeof setTimeout>;
  abort: AbortController;
  ended: boolean;
}

const MESSAGE_TYPE = 'paykit:payment';
const LINK_REUSE_MARGIN_MS = 60_000;

/**
 * A pay button: creates a pay link for `amount` and takes the payer to the hosted pay page in a modal
 * dialog, a popup or by redirect. The outcome arrives as a message from the pay page (accepted only from the
 * service's origin and for this button's order), or, when no message can arrive, by polling the link every
 * two seconds while the payment window is open.
 *
 * @fires pay-success - The payment was approved (or submitted, for a bank payment). `detail`: `{transaction_id, order_id, amount}`.
 * @fires pay-error - Creating the link failed, the configuration is incomplete, or the payment was declined. `detail`: `{message}`.
 * @fires pay-cancel - The payer closed the payment window without paying.
 *
 * @attr amount - Decimal text, e.g. "10.00" (US dollars).
 * @attr order-id - The merchant's order reference; the service makes one when absent.
 * @attr description - What is being paid for, shown on the pay page.
 * @attr mode - `dialog` (default), `popup` or `redirect`.
 * @attr show-qr - Also show the pay link as a QR code once it exists.
 * @attr label - The button's whole text; default "{verb} {amount}", the verb being the merchant's configured label ("Pay").
 * @attr locale - BCP 47 locale for amounts; default the document's language, else en-US.
 * @attr public-key - The merchant's public key; overrides the script tag and configure().
 * @attr base-url - The payment service's origin; overrides the script tag and configure().
 *
 * @csspart base - The wrapper of everything beside the dialog.
 * @csspart button - The pay button, a native <button>.
 * @csspart label - The text inside the button.
 * @csspart status - The polite live region with the current state.
 * @csspart error - The alert with what went wrong.
 * @csspart qr - The figure with the QR code; `qr-image` and `qr-link` inside it.
 * @csspart qr-image - The QR code image.
 * @csspart qr-link - The link to the pay page beside the QR code.
 * @csspart dialog - The modal <dialog>; `dialog-header`, `close-button`, `dialog-body`, `frame`, `new-window-link` inside it.
 * @csspart dialog-header - The dialog's title bar.
 * @csspart close-button - The dialog's close button.
 * @csspart dialog-body - The area around the pay page.
 * @csspart frame - The <iframe> with the pay page.
 * @csspart new-window-link - Under the frame: the pay page in a new window instead.
 *
 * @cssprop --paykit-primary-color - Button background and link colour.
 * @cssprop --paykit-on-primary-color - Button text colour.
 * @cssprop --paykit-surface-color - Dialog background.
 * @cssprop --paykit-text-color - Dialog text; the lines under the button keep the page's colour.
 * @cssprop --paykit-border-color - Dialog border.
 * @cssprop --paykit-error-color - The bar beside an error.
 * @cssprop --paykit-success-color - The bar beside the success line.
 * @cssprop --paykit-focus-ring-color - Keyboard focus outline.
 * @cssprop --paykit-radius - Corner radius.
 * @cssprop --paykit-font-family - Font.
 * @cssprop --paykit-font-size - Base font size.
 * @cssprop --paykit-target-size - Minimum size of controls (44px).
 * @cssprop --paykit-qr-size - Side of the QR code (144px).
 * @tagname pay-button
 */
export class PayButton extends PaykitPublicKeyElement<PayButtonStringKey> {
  static override styles = payButtonStyles;

  /** Decimal text in US dollars, e.g. "10.00". */
  @property() amount?: string;

  /** The merchant's order reference. */
  @property({ attribute: 'order-id' }) orderId?: string;

  /** What the payment is for. */
  @property() description?: string;

  /** How the pay page opens: `dialog` (default), `popup` or `redirect`. */
  @property() mode: PayMode = 'dialog';

  /** Shows the pay link as a QR code next to the button once it is created. */
  @property({ type: Boolean, attribute: 'show-qr' }) showQr = false;

  /** The button's text; replaces the default and the merchant's configured label. */
  @property() label?: string;

  /** Milliseconds between checks of the pay link while the payment window is open. */
  @property({ attribute: false }) pollInterval = 2000;

  protected override readonly defaultStrings = payButtonStrings;

  @state() private phase: Phase = 'idle';
  @state() private statusText = '';
  @state() private errorText = '';
  @state() private frameUrl?: string;
  @state() private qr?: { src: string; href: string };

  @query('button[part="button"]') private button!: HTMLButtonElement;

  private linkInUse?: LinkInUse;
  private attempt?: Attempt;
  private readonly modal = new ModalController(
    this,
    () => this.renderRoot?.querySelector('dialog'),
    () => this.endAttempt('cancelled'),
  );

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stopAttempt();
    if (this.phase === 'loading' || this.phase === 'open') this.phase = 'idle';
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    // A different payment: its QR code and pay link no longer apply.
    if (changed.has('amount') || changed.has('orderId') || changed.has('description') || changed.has('publicKey') || changed.has('baseUrl')) {
      if (this.hasUpdated && !this.attempt) {
        this.qr = undefined;
        this.linkInUse = undefined;
      }
    }
  }

  private get effectiveMode(): PayMode {
    return this.mode === 'popup' || this.mode === 'redirect' ? this.mode : 'dialog';
  }

  private get formattedAmount(): string | undefined {
    return isAmount(this.amount) ? this.money(this.amount) : undefined;
  }

  private get buttonLabel(): string {
    if (this.label) return this.label;
    const verb = this.settings?.button_label || this.t('verb');
    const amount = this.formattedAmount;
    return amount ? this.t('label', { verb, amount }) : verb;
  }

  private handleClick(): void {
    if (this.phase === 'loading' || this.phase === 'redirecting') return;
    if (this.attempt?.popup && !this.attempt.popup.closed) {
      this.attempt.popup.focus();
      return;
    }
    if (!isAmount(this.amount)) {
      this.fail(this.t('invalidAmount', { amount: this.amount ?? '' }));
      return;
    }
    let config: ResolvedConfig;
    try {
      config = this.resolvedConfig();
    } catch (error) {
      this.fail((error as Error).message);
      return;
    }
    // A popup the payer closed that the next check has not noticed yet: that attempt ends here, quietly.
    this.stopAttempt();
    const mode = this.effectiveMode;
    // Opened now, inside the click, or the browser's popup blocker refuses it; the pay page is loaded later.
    const popup = mode === 'popup' ? window.open('', 'paykit-pay', 'popup,width=480,height=720') : null;
    void this.start(config, mode, popup);
  }

  private async start(config: ResolvedConfig, mode: PayMode, popup: Window | null): Promise<void> {
    this.phase = 'loading';
    this.statusText = this.t('loading');
    this.errorText = '';
    let use: LinkInUse;
    try {
      use = await this.payLinkFor(config);
    } catch (error) {
      popup?.close();
      this.fail(await this.describeFailure(error, config));
      return;
    }
    if (!this.isConnected) {
      popup?.close();
      return;
    }
    if (this.showQr && mode !== 'redirect') void this.showQrCode(use.link.pay_link);

    if (mode === 'redirect') {
      this.phase = 'redirecting';
      this.statusText = this.t('redirecting');
      window.location.assign(use.link.pay_link);
      return;
    }
    const url = `${use.link.pay_link}${use.link.pay_link.includes('?') ? '&' : '?'}origin=${encodeURIComponent(location.origin)}`;
    const usePopup = mode === 'popup' && popup !== null && !popup.closed;
    this.attempt = { use, mode: usePopup ? 'popup' : 'dialog', popup: usePopup ? popup : null, abort: new AbortController(), ended: false };
    window.addEventListener('message', this.handleMessage);
    this.phase = 'open';
    this.statusText = this.t('open');
    if (usePopup) {
      popup.location.href = url;
    } else {
      // Dialog mode, or a popup the browser blocked: the pay page in a modal on this page instead.
      this.frameUrl = url;
      await this.updateComplete;
      this.modal.show(this.button);
    }
    this.schedulePoll(this.attempt);
  }

  private async payLinkFor(config: ResolvedConfig): Promise<LinkInUse> {
    const key = JSON.stringify([config.baseUrl, config.publicKey, this.amount, this.orderId ?? '', this.description ?? '']);
    const reusable = this.linkInUse;
    if (reusable && reusable.key === key && Date.parse(reusable.link.expires_at) - Date.now() > LINK_REUSE_MARGIN_MS) return reusable;
    const link = await createPayLink(config, {
      amount: this.amount!.trim(),
      order_id: this.orderId || undefined,
      description: this.description || undefined,
    });
    this.linkInUse = { key, config, link };
    return this.linkInUse;
  }

  private async showQrCode(payLink: string): Promise<void> {
    try {
      const src = await qrDataUrl(payLink);
      if (this.linkInUse?.link.pay_link === payLink) this.qr = { src, href: payLink };
    } catch (error) {
      console.warn('Paykit: the QR code could not be drawn:', error);
    }
  }

  private handleMessage = (event: MessageEvent): void => {
    const attempt = this.attempt;
    if (!attempt || attempt.ended) return;
    if (event.origin !== new URL(attempt.use.config.baseUrl).origin) return;
    const data: unknown = event.data;
    if (!data || typeof data !== 'object') return;
    const message = data as Record<string, unknown>;
    // Another pay button on the page has its own order: its payment is not ours.
    if (message.type !== MESSAGE_TYPE || message.order_id !== attempt.use.link.order_id) return;
    if (message.status === 'approved' || message.status === 'pending') {
      this.succeed(
        {
          transaction_id: typeof message.transaction_id === 'string' ? message.transaction_id : null,
          order_id: attempt.use.link.order_id,
          amount: amountText(message.amount) ?? attempt.use.link.amount,
        },
        message.status,
      );
    } else if (message.status === 'declined') {
      // The pay page stays open in the window for another try.
      const text = typeof message.message === 'string' && message.message ? message.message : this.t('declined');
      this.errorText = text;
      emit(this, 'pay-error', { message: text });
    }
  };

  private schedulePoll(attempt: Attempt): void {
    attempt.timer = setTimeout(() => void this.poll(attempt), this.pollInterval);
  }

  private async poll(attempt: Attempt): Promise<void> {
    if (attempt.ended || attempt !== this.attempt) return;
    const popupClosed = attempt.mode === 'popup' && (attempt.popup?.closed ?? true);
    try {
      const state = await getPayLink(attempt.use.config, attempt.use.link.link_id, attempt.abort.signal);
      if (attempt.ended || attempt !== this.attempt) return;
      if (state.status === 'paid') {
        this.succeed({ transaction_id: state.transaction_id, order_id: state.order_id, amount: state.amount }, 'approved');
        return;
      }
      if (state.status === 'expired') {
        this.linkInUse = undefined;
        this.endAttempt('expired');
        return;
      }
    } catch {
      if (attempt.ended) return;
      // A missed check is retried at the next tick; the payment window is still open.
    }
    if (popupClosed) this.endAttempt('cancelled');
    else this.schedulePoll(attempt);
  }

  private succeed(detail: PaySuccessDetail, status: 'approved' | 'pending'): void {
    this.stopAttempt();
    this.linkInUse = undefined;
    this.qr = undefined;
    this.modal.close();
    this.frameUrl = undefined;
    this.phase = 'success';
    this.errorText = '';
    this.statusText = this.t(status === 'pending' ? 'pending' : 'success');
    emit(this, 'pay-success', detail);
  }

  private endAttempt(reason: 'cancelled' | 'expired'): void {
    if (!this.attempt) return;
    this.stopAttempt();
    this.modal.close();
    this.frameUrl = undefined;
    if (reason === 'expired') {
      this.qr = undefined;
      this.fail(this.t('expired'));
      return;
    }
    this.phase = 'idle';
    this.errorText = '';
    this.statusText = this.t('cancelled');
    emit(this, 'pay-cancel', null);
  }

  private stopAttempt(): void {
    const attempt = this.attempt;
    if (!attempt) return;
    attempt.ended = true;
    clearTimeout(attempt.timer);
    attempt.abort.abort();
    window.removeEventListener('message', this.handleMessage);
    this.attempt = undefined;
  }

  private fail(message: string): void {
    this.phase = 'error';
    this.statusText = '';
    this.errorText = message;
    emit(this, 'pay-error', { message });
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    this.reflectState(this.phase);
  }

  override render() {
    const busy = this.phase === 'loading' || this.phase === 'redirecting';
    const amount = this.formattedAmount ?? '';
    return html`<div part="base" class="base">
        <div class="row">
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
            <span part="label">${this.buttonLabel}</span>
          </button>
          ${this.qr
            ? html`<figure part="qr" class="qr">
                <img part="qr-image" src=${this.qr.src} alt=${this.t('qrAlt', { amount })} width="144" height="144" />
                <figcaption><a part="qr-link" href=${this.qr.href} target="_blank" rel="noopener">${this.t('qrLink')}</a></figcaption>
              </figure>`
            : nothing}
        </div>
        <p part="status" class="status" data-state=${this.phase} aria-live="polite">${this.statusText}</p>
        <p part="error" class="error" role="alert">${this.errorText}</p>
      </div>
      ${renderModal({
        title: this.t('dialogTitle', { amount }),
        closeLabel: this.t('close'),
        controller: this.modal,
        body: this.frameUrl
          ? html`<iframe part="frame" title=${this.t('frameTitle')} src=${this.frameUrl} allow="payment"></iframe>
              <p class="modal-footer">
                <!-- For a pay page that cannot be framed, or a payer who prefers a window: rel=opener lets it report back. -->
                <a part="new-window-link" href=${this.frameUrl} target="_blank" rel="opener">${this.t('newWindow')}</a>
              </p>`
          : nothing,
      })}`;
  }
}

/** The pay page sends the amount as a number (10.5); events carry decimal text ("10.50"), as the API does. */
function amountText(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value.toFixed(2);
  if (typeof value === 'string' && value.trim()) return value.trim();
  return undefined;
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-button': PayButton;
  }
}
