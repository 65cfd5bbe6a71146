import { expect } from '@open-wc/testing';
import * as paykit from '../../src/index.ts';
import { defineElement } from '../../src/shared/define.ts';

describe('registration', () => {
  it('defines the three elements with their classes, and exports them with configure()', () => {
    expect(customElements.get('pay-button')).to.equal(paykit.PayButton);
    expect(customElements.get('request-payment-button')).to.equal(paykit.RequestPaymentButton);
    expect(customElements.get('transactions-table')).to.equal(paykit.TransactionsTable);
    expect(paykit.configure).to.be.a('function');
    const typed: paykit.PayButton = document.createElement('pay-button');
    expect(typed).to.be.instanceOf(paykit.PayButton);
  });

  it('is harmless to define twice, as when the script tag and the package share a page', () => {
    class Impostor extends HTMLElement {}
    expect(() => defineElement('pay-button', Impostor)).not.to.throw();
    expect(customElements.get('pay-button')).to.equal(paykit.PayButton);
  });

  it('takes public-key and base-url from configure() when the element has none', async () => {
    paykit.configure({ publicKey: 'pk_page', baseUrl: 'http://127.0.0.1:9' });
    const el = document.createElement('pay-button');
    el.amount = '1';
    document.body.append(el);
    await el.updateComplete;
    try {
      const failed = new Promise<CustomEvent>((resolve) => el.addEventListener('pay-error', resolve, { once: true }));
      el.shadowRoot!.querySelector('button')!.click();
      // Reached for the page's service: the configuration was taken, the (closed) port refused.
      expect((await failed).detail.message).to.match(/Could not reach/);
    } finally {
      el.remove();
    }
  });
});
