import { css, html, nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';

/**
 * A modal built on the native <dialog>: showModal() keeps focus inside and makes the page inert, Escape
 * and the visible close button dismiss it, and focus returns to the control that opened it.
 */
export class ModalController implements ReactiveController {
  private opener: HTMLElement | null = null;
  private closingOnPurpose = false;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly dialog: () => HTMLDialogElement | null | undefined,
    /** The payer dismissed the dialog (Escape or the close button), as opposed to close(). */
    private readonly onDismiss: () => void,
  ) {
    host.addController(this);
  }

  get isOpen(): boolean {
    return this.dialog()?.open ?? false;
  }

  /** Opens as a modal; focus comes back to `opener` when it closes. */
  show(opener: HTMLElement): void {
    const dialog = this.dialog();
    if (!dialog || dialog.open) return;
    this.opener = opener;
    this.closingOnPurpose = false;
    dialog.showModal();
  }

  /** Closes without counting as a dismissal (the payment ended). */
  close(): void {
    const dialog = this.dialog();
    if (!dialog?.open) return;
    this.closingOnPurpose = true;
    dialog.close();
  }

  /** What the close button does: the same as Escape. */
  dismiss = (): void => {
    this.dialog()?.close();
  };

  /** Listener for the dialog's `close` event, whatever closed it. */
  handleClose = (): void => {
    const dismissed = !this.closingOnPurpose;
    this.closingOnPurpose = false;
    if (this.host.isConnected) this.opener?.focus();
    this.opener = null;
    if (dismissed) this.onDismiss();
  };

  hostDisconnected(): void {
    this.closingOnPurpose = true;
    this.dialog()?.close();
  }
}

export interface ModalTemplate {
  title: string;
  closeLabel: string;
  controller: ModalController;
  body: TemplateResult | typeof nothing;
}

/** The dialog's markup: a labelled header with the close button first, so it takes the initial focus. */
export function renderModal({ title, closeLabel, controller, body }: ModalTemplate): TemplateResult {
  return html`<dialog part="dialog" class="modal" aria-labelledby="modal-title" @close=${controller.handleClose}>
    <div part="dialog-header" class="modal-header">
      <h2 id="modal-title" class="modal-title">${title}</h2>
      <button part="close-button" class="modal-close" type="button" autofocus aria-label=${closeLabel} title=${closeLabel} @click=${controller.dismiss}>
        <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" focusable="false">
          <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" stroke-width="2" stroke-linecap="round" fill="none" />
        </svg>
      </button>
    </div>
    <div part="dialog-body" class="modal-body">${body}</div>
  </dialog>`;
}

export const modalStyles = css`
  .modal {
    box-sizing: border-box;
    inline-size: min(480px, calc(100vw - 2rem));
    max-block-size: calc(100vh - 2rem);
    padding: 0;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    color: var(--_text);
    font-family: var(--_font);
    box-shadow: 0 12px 40px rgb(0 0 0 / 0.3);
  }
  .modal::backdrop {
    background: rgb(0 0 0 / 0.55);
  }
  .modal-header {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 0.5rem;
    padding: 0.25rem 0.25rem 0.25rem 1rem;
    border-block-end: 1px solid var(--_border);
  }
  .modal-title {
    margin: 0;
    font-size: 1.0625em;
    font-weight: 600;
  }
  .modal-close {
    display: inline-grid;
    place-items: center;
    inline-size: var(--_target);
    block-size: var(--_target);
    padding: 0;
    border: 0;
    border-radius: var(--_radius);
    background: transparent;
    color: inherit;
    cursor: pointer;
  }
  .modal-close:hover {
    background: color-mix(in srgb, currentColor 10%, transparent);
  }
  .modal-close:focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: -3px;
  }
  .modal-footer {
    margin: 0;
    padding: 0 1rem;
    border-block-start: 1px solid var(--_border);
    font-size: 0.875em;
  }
  .modal-footer a {
    display: inline-flex;
    align-items: center;
    min-block-size: var(--_target);
    color: var(--_text);
  }
  .modal-footer a:focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  .modal-body iframe {
    display: block;
    inline-size: 100%;
    block-size: min(640px, calc(100vh - 9rem));
    border: 0;
    background: #fff;
  }
`;
