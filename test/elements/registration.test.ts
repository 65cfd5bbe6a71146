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

  it('has its properties on the prototype, where @lit/react looks for them', () => {
    for (const name of [
      'amount',
      'orderId',
      'description',
      'mode',
      'showQr',
      'pollInterval',
      'label',
      'strings',
      'publicKey',
      'baseUrl',
      'locale',
    ]) {
      expect(name in paykit.PayButton.prototype, name).to.equal(true);
    }
    expect('recipientPhone' in paykit.RequestPaymentButton.prototype).to.equal(true);
    for (const name of ['sessionToken', 'pageSize', 'fetchSessionToken'])
      expect(name in paykit.TransactionsTable.prototype, name).to.equal(true);
    expect(() => paykit.PayButton.prototype.amount).not.to.throw();
  });

  it('keeps properties set before the element was defined, as Vue may set them', async () => {
    const el = document.createElement('paykit-early-button') as paykit.PayButton;
    Object.assign(el, {
      amount: '3',
      label: 'Early',
      mode: 'popup',
      showQr: true,
      pollInterval: 500,
      strings: { label: 'Now {amount}' },
    });
    document.body.append(el);
    try {
      customElements.define('paykit-early-button', class extends paykit.PayButton {});
      await el.updateComplete;
      expect(el).to.be.instanceOf(paykit.PayButton);
      expect([el.amount, el.label, el.mode, el.showQr, el.pollInterval]).to.deep.equal([
        '3',
        'Early',
        'popup',
        true,
        500,
      ]);
      expect(Object.hasOwn(el, 'amount'), 'the value moved behind the accessor').to.equal(false);
      expect(el.shadowRoot!.querySelector('[part="label"]')!.textContent).to.equal('Early');
      el.label = undefined;
      el.amount = '4';
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('[part="label"]')!.textContent).to.equal('Now $4.00');
    } finally {
      el.remove();
    }
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
