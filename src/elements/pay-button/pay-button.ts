import { html, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit-element';
import type { ResolvedConfig } from '../../config.ts';
import { publicKeyCall, type PayLink, type PayLinkRequest, type PayLinkState } from '../../widget-api.ts';
import { onRefusal } from '../../shared/csp.ts';
import { errorDetail, WidgetError } from '../../shared/errors.ts';
import { emit, type PaySuccessDetail } from '../events.ts';
import { isAmount, resolveLocale } from '../../shared/format.ts';
import { commonStrings, PaykitButtonElement } from '../paykit-element.ts';
import { qrDataUrl } from '../../shared/qr.ts';
import { styles } from '../../shared/styles.ts';
import { payButtonStyles } from './pay-button.styles.ts';

export const payButtonStrings = {
  ...commonStrings,
  /** `{verb}` is `strings.verb`, else the merchant's configured button label, else `verb`; `{amount}` the price. */
  label: '{verb} {amount}',
  verb: 'Pay',
  loading: 'Preparing your payment…',
  open: 'Complete the payment in its window.',
  redirecting: 'Opening the payment page…',
  success: 'Payment received. Thank you!',
  /** The button's whole text once its order is paid (or submitted, for a bank payment). */
  paid: 'Paid',
  /** Pressed again once its order is paid. */
  paidAlready: 'This order is already paid.',
  pending: 'Payment submitted. The bank confirms it soon.',
  cancelled: 'Payment cancelled. Nothing was charged.',
  declined: 'Payment declined. Try another card.',
  expired: 'The payment link expired. Try again.',
  dialogTitle: 'Pay {amount}',
  close: 'Close',
  frameTitle: 'Secure payment form',
  newWindow: 'Open in a new window',
  qrAlt: 'QR code: scan to pay {amount} on a phone',
  qrLink: 'Open the payment page',
} as const;

export type PayButtonStringKey = keyof typeof payButtonStrings;

/** Where a payment stands; each is a custom state of the element (the `@cssstate`s below). */
type PayButtonPhase = 'idle' | 'loading' | 'open' | 'redirecting' | 'success' | 'error';

/** The pay link of this button, kept while it is open so a second try keeps the same order. */
interface LinkInUse {
  key: string;
  config: ResolvedConfig;
  link: PayLink;
}

/** One opening of the payment window (the dialog, or a popup): listening for its message and polling until it ends. */
interface Attempt extends LinkInUse {
  popup: Window | null;
  /** The pay page's origin, from the link the service returned: its messages come from there. */
  payOrigin: string;
  /** Stops listening for the page's policy refusing to frame the pay page. */
  unwatch?: () => void;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * A pay button: creates a pay link for `amount` and takes the payer to the hosted pay page in a modal
 * dialog, a popup or by redirect, in the element's language. The outcome arrives as a message from the pay page
 * (accepted only from the origin of the pay link the service returned, and for this button's order), or, when no
 * message can arrive, by polling the link every two seconds while the payment window is open. `pay-success` tells
 * the page the money is the merchant's, `pay-pending` that a bank payment waits for the bank; the merchant's server
 * checks the paid amount against its order before it ships anything.
 *
 * @fires {CustomEvent<PaySuccessDetail>} pay-success - The payment was approved: the money is the merchant's. `detail`: `{transaction_id, order_id, amount}`.
 * @fires {CustomEvent<PayPendingDetail>} pay-pending - A bank payment was submitted and waits for the bank, which may still refuse it: do not ship yet (the `ach.update` webhook tells the outcome). `detail`: `{transaction_id, order_id, amount}`.
 * @fires {CustomEvent<PaykitErrorDetail>} pay-error - Creating the link failed, the configuration is incomplete, the page's policy blocked the payment window, or the payment was declined. `detail`: `{code, message}`.
 * @fires {CustomEvent<null>} pay-cancel - The payer closed the payment window without paying.
 *
 * @attr label - The button's whole text; default "{verb} {amount}", the verb being `strings.verb`, else the merchant's configured label, else "Pay" in the element's language.
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
 *
 * @cssstate idle - Ready, or the last payment was cancelled.
 * @cssstate loading - Creating the pay link.
 * @cssstate open - The payment window is open.
 * @cssstate redirecting - Leaving for the pay page.
 * @cssstate success - Paid (or submitted, for a bank payment): the button reads "Paid", and pressing it starts no second payment of the order, but says it is paid. Changing the amount, order id or description makes it a new payment.
 * @cssstate error - The error line says what went wrong.
 * @tagname pay-button
 */
export class PayButton extends PaykitButtonElement<PayButtonStringKey> {
  static override styles = [styles, payButtonStyles];

  static override properties: PropertyDeclarations = {
    description: {},
    receiptEmail: { attribute: 'receipt-email' },
    mode: {},
    showQr: { type: Boolean, attribute: 'show-qr' },
    pollInterval: { attribute: false },
    // Redeclared for its type: each element's own keys.
    strings: { attribute: false },
  };

  /** What the payment is for, shown on the pay page. */
  declare description?: string;

  /**
   * The shopper's e-mail, if the page knows it: the pay page's optional receipt field starts with it, and the shopper
   * may change or clear it. One that is no address makes the click fail with `invalid_request`.
   */
  declare receiptEmail?: string;

  /** How the pay page opens: `dialog` (default), `popup` or `redirect`. */
  declare mode: 'dialog' | 'popup' | 'redirect';

  /** Shows the pay link as a QR code next to the button once it is created. */
  declare showQr: boolean;

  /** Milliseconds between checks of the pay link while the payment window is open; not a positive number: 2000. */
  declare pollInterval: number;

  /** Replacements for any visible text, by key (the keys of `payButtonStrings`); `{name}` placeholders are filled in. */
  declare strings: Partial<Record<PayButtonStringKey, string>>;

  constructor() {
    super();
    this.mode = 'dialog';
    this.showQr = false;
    this.pollInterval = 2000;
  }

  protected override readonly defaultStrings = payButtonStrings;

  protected override readonly textsName = 'payButton';

  /**
   * Where the payment stands: idle, loading (the link is made), open (the payment window), redirecting, success
   * or error. A journey of its own rather than a task: most of it happens in another window.
   */
  #phase: PayButtonPhase = 'idle';
  #status = '';
  #error = '';
  #link?: LinkInUse;
  #attempt?: Attempt;
  #frameUrl?: string;
  /** The QR code of #link, as a data: URL. */
  #qr?: string;

  protected override get phase(): PayButtonPhase {
    return this.#phase;
  }

  protected override get busy(): boolean {
    return this.#phase === 'loading' || this.#phase === 'redirecting';
  }

  /** Shows a state with its status line and error line. */
  #show(phase: PayButtonPhase, status = '', error = ''): void {
    this.#phase = phase;
    this.#status = status;
    this.#error = error;
    this.requestUpdate();
  }

  #fail(error: WidgetError): void {
    this.#show('error', '', error.message);
    emit(this, 'pay-error', errorDetail(error));
  }

  get #dialog(): HTMLDialogElement {
    return this.renderRoot.querySelector('dialog')!;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#stop();
    if (this.#phase === 'loading' || this.#phase === 'open') this.#show('idle');
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    // A different payment: its QR code no longer applies (a new pay link is made on the next click), and a paid
    // order's button can pay again.
    if (
      !this.#attempt &&
      ['amount', 'orderId', 'description', 'publicKey', 'baseUrl'].some((name) => changed.has(name))
    ) {
      this.#qr = undefined;
      if (this.#phase === 'success') this.#phase = 'idle';
    }
  }

  #amount(): string {
    return isAmount(this.amount) ? this.money(this.amount) : '';
  }

  protected override buttonText(): string {
    if (this.#phase === 'success') return this.t('paid');
    const verb = this.strings?.verb ?? this.merchantLabel ?? this.t('verb');
    const amount = this.#amount();
    return this.label || (amount ? this.t('label', { verb, amount }) : verb);
  }

  protected override act(): void {
    // Paid, or submitted: a second payment of this order is never started (the service would refuse its order id).
    if (this.#phase === 'success') return this.#show('success', this.t('paidAlready'));
    const popup = this.#attempt?.popup;
    if (popup && !popup.closed) return popup.focus();
    let config: ResolvedConfig;
    try {
      config = this.checkedConfig();
    } catch (error) {
      return this.#fail(error as WidgetError);
    }
    // A popup the payer closed that the next check has not noticed yet: that attempt ends here, quietly.
    this.#stop();
    // Opened now, inside the click, or the browser's popup blocker refuses it; the pay page is loaded later.
    void this.#start(config, this.mode === 'popup' ? open('', 'paykit-pay', 'popup,width=480,height=720') : null);
  }

  async #start(config: ResolvedConfig, popup: Window | null): Promise<void> {
    this.#show('loading', this.t('loading'));
    let use: LinkInUse;
    try {
      use = await this.#payLink(config);
    } catch (error) {
      popup?.close();
      return this.#fail(await this.failure(error, config));
    }
    if (!this.isConnected) return popup?.close();
    const payLink = use.link.pay_link;
    if (this.mode === 'redirect') {
      this.#show('redirecting', this.t('redirecting'));
      return location.assign(payLink);
    }
    if (this.showQr) {
      qrDataUrl(payLink).then(
        (src) => {
          if (this.#link === use) {
            this.#qr = src;
            this.requestUpdate();
          }
        },
        () => {},
      );
    }
    // The pay page reports to this page's origin, in this element's language.
    const url = `${payLink}?origin=${encodeURIComponent(location.origin)}&locale=${encodeURIComponent(resolveLocale(this.locale))}`;
    const attempt: Attempt = (this.#attempt = {
      ...use,
      popup: popup?.closed ? null : popup,
      payOrigin: new URL(payLink).origin,
    });
    addEventListener('message', this.#onMessage);
    this.#show('open', this.t('open'));
    if (attempt.popup) {
      attempt.popup.location.href = url;
    } else {
      // Dialog mode, or a popup the browser blocked: the pay page in a modal on this page instead. A frame the
      // page's policy refuses shows nothing and tells nobody, so the refusal itself ends the attempt, with its fix.
      attempt.unwatch = onRefusal(payLink, ['frame-src'], (error) => {
        this.#stop();
        this.#fail(this.forShopper(error));
      });
      this.#frameUrl = url;
      await this.updateComplete;
      // The close button has autofocus, so it takes the focus, which the modal then keeps inside.
      this.#dialog.showModal();
    }
    this.#poll(attempt);
  }

  async #payLink(config: ResolvedConfig): Promise<LinkInUse> {
    const { amount, orderId, description, receiptEmail } = this;
    const body: PayLinkRequest = {
      amount: amount!.trim(),
      order_id: orderId || undefined,
      description: description || undefined,
      receipt_email: receiptEmail || undefined,
    };
    // The same request, the same link, reused until a minute before it expires.
    const key = JSON.stringify([config, body]);
    const link = this.#link;
    if (link?.key === key && Date.parse(link.link.expires_at) - Date.now() > 60_000) return link;
    return (this.#link = { key, config, link: await publicKeyCall<PayLink>(config, 'pay-links', body) });
  }

  #onMessage = ({ origin, data }: MessageEvent): void => {
    const attempt = this.#attempt;
    const link = attempt?.link;
    // Only the pay page (on the pay link's origin, or the service's) and only for this button's order: another
    // pay button on the page has its own. The pay link may use another origin than the calls (PAYKIT_PUBLIC_URL).
    if ((origin !== attempt?.payOrigin && origin !== attempt?.config.baseUrl) || data?.order_id !== link!.order_id)
      return;
    // Escape pressed inside the pay page's frame: the dialog closes, as with Escape outside it (a cancel).
    // Closing a dialog that is not open does nothing.
    if (data.type === 'paykit:close') return this.#dialog.close();
    if (data.type !== 'paykit:payment') return;
    if (data.status === 'declined') {
      // The pay page stays open in the window for another try.
      const message = data.message || this.t('declined');
      this.#show('open', this.t('open'), message);
      emit(this, 'pay-error', { code: 'card_declined', message });
    } else if (data.status === 'approved' || data.status === 'pending') {
      // The pay page sends the amount charged as a number (10.5); events carry decimal text ("10.50").
      const amount = typeof data.amount === 'number' ? data.amount.toFixed(2) : link!.amount;
      this.#end({ transaction_id: data.transaction_id || null, order_id: link!.order_id, amount }, data.status);
    }
  };

  /** Checks the link every pollInterval while the window is open; a missed check is retried at the next. */
  #poll(attempt: Attempt): void {
    // An adapter may unset it (undefined, null, 0): that must not become a check in every task.
    const interval = this.pollInterval;
    attempt.timer = setTimeout(
      async () => {
        const popupClosed = attempt.popup?.closed;
        const state = await publicKeyCall<PayLinkState>(attempt.config, `pay-links/${attempt.link.link_id}`).catch(
          () => undefined,
        );
        if (attempt !== this.#attempt) return;
        if (state?.status === 'paid' || state?.status === 'pending') this.#end(state, state.status);
        else if (state?.status === 'declined') {
          // The bank refused a payment made through this link while its window was open: the link is spent.
          this.#stop();
          this.#fail(new WidgetError(this.t('declined'), 'card_declined'));
        } else if (state?.status === 'expired') this.#end();
        else if (popupClosed) this.#end(null);
        else this.#poll(attempt);
      },
      interval > 0 && interval < 2 ** 31 ? interval : 2000,
    );
  }

  /** How the attempt ended: paid (`detail`; a bank payment's `status` is `pending`), cancelled by the payer (null), or the link expired (undefined). */
  #end(detail?: PaySuccessDetail | null, status?: string): void {
    this.#stop();
    if (detail === null) {
      this.#show('idle', this.t('cancelled'));
      emit(this, 'pay-cancel', null);
      return;
    }
    this.#link = this.#qr = undefined;
    if (!detail) return this.#fail(new WidgetError(this.t('expired'), 'expired'));
    const { transaction_id, order_id, amount } = detail;
    this.#show('success', this.t(status === 'pending' ? 'pending' : 'success'));
    emit(this, status === 'pending' ? 'pay-pending' : 'pay-success', { transaction_id, order_id, amount });
  }

  /** Ends the attempt without a word: no more messages or checks, and no dialog. */
  #stop(): void {
    if (!this.#attempt) return;
    clearTimeout(this.#attempt.timer);
    this.#attempt.unwatch?.();
    this.#attempt = this.#frameUrl = undefined;
    removeEventListener('message', this.#onMessage);
    this.#dialog.close();
  }

  /** The dialog closed: by Escape or its close button while the attempt runs (a cancel), or by #stop. */
  #onClose(): void {
    if (this.isConnected) this.renderRoot.querySelector('button')!.focus();
    if (this.#attempt) this.#end(null);
  }

  protected override renderLines(): TemplateResult {
    return this.lines(this.#status, this.#error);
  }

  protected override renderExtras(): unknown[] {
    const url = this.#frameUrl;
    const amount = this.#amount();
    const qr = this.#qr
      ? html`<figure part="qr">
          <img part="qr-image" src=${this.#qr} alt=${this.t('qrAlt', { amount })} />
          <a part="qr-link" href=${this.#link!.link.pay_link} target="_blank" rel="noopener">${this.t('qrLink')}</a>
        </figure>`
      : '';
    // For a pay page that cannot be framed, or a payer who prefers a window: rel=opener lets it report back.
    const payPage = url
      ? html`<iframe part="frame" title=${this.t('frameTitle')} src=${url} allow="payment"></iframe>
          <a part="new-window-link" href=${url} target="_blank" rel="opener">${this.t('newWindow')}</a>`
      : '';
    // The close button comes first, so it takes the initial focus.
    const dialog = html`<dialog part="dialog" class=${this.scheme} aria-labelledby="modal-title" @close=${this.#onClose}>
      <header part="dialog-header">
        <h2 id="modal-title">${this.t('dialogTitle', { amount })}</h2>
        <button part="close-button" class="close" autofocus aria-label=${this.t('close')} @click=${() => this.#dialog.close()}>✕</button>
      </header>
      <section part="dialog-body">${payPage}</section>
    </dialog>`;
    return [qr, dialog];
  }
}

export type PayMode = PayButton['mode'];

declare global {
  interface HTMLElementTagNameMap {
    'pay-button': PayButton;
  }
}
