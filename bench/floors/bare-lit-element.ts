/**
 * The floor of the widgets' interactive time (bench/widgets.ts): a bare Lit element, one button with its amount,
 * bundled into one module with Lit and served from the service like the script tag's files.
 */
import { html, LitElement } from 'lit-element';

class BareLitElement extends LitElement {
  static override properties = { amount: {} };

  declare amount?: string;

  override render() {
    return html`<button type="button">Pay $${this.amount}</button>`;
  }
}

customElements.define('bare-lit-element', BareLitElement);
