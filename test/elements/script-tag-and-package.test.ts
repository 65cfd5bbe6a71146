/**
 * A page with both the script tag and the npm package: each tag is defined once, by whichever comes first, and
 * the elements of either take the configuration the script tag gave the page.
 */
import { expect } from '@open-wc/testing';
import { RequestPaymentButton } from '../../src/request-payment-button.ts';
import { loadScriptTag, requested } from './script-tag-helpers.ts';
import { eventWithin, part, realService, uniqueOrderId } from './helpers.ts';

describe('the script tag and the npm package on one page', function () {
  this.timeout(15000);

  it('defines each tag once, whichever defines it first, without an error', async function () {
    const service = realService(this);
    // The package's <request-payment-button> is defined (by importing it) before the script tag loads.
    expect(customElements.get('request-payment-button')).to.equal(RequestPaymentButton);
    const errors: unknown[] = [];
    const onError = (event: ErrorEvent) => errors.push(event.error ?? event.message);
    window.addEventListener('error', onError);
    const payButton = document.createElement('pay-button');
    const request = document.createElement('request-payment-button');
    document.body.append(payButton, request);
    try {
      await loadScriptTag(service);
      await customElements.whenDefined('pay-button');
      const fromScriptTag = customElements.get('pay-button')!;
      const paykit = await import('../../src/index.ts');
      expect(customElements.get('pay-button'), 'the script tag came first').to.equal(fromScriptTag);
      expect(fromScriptTag).not.to.equal(paykit.PayButton);
      expect(customElements.get('request-payment-button'), 'the package came first').to.equal(RequestPaymentButton);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(requested('request-payment-button'), 'the script tag left the package’s element alone').to.equal(false);
      expect(errors).to.deep.equal([]);
    } finally {
      window.removeEventListener('error', onError);
      payButton.remove();
      request.remove();
    }
  });

  it('gives the package’s elements the configuration of the script tag', async function () {
    realService(this);
    const request = document.createElement('request-payment-button');
    request.setAttribute('amount', '2.25');
    request.setAttribute('recipient-phone', '+14155550123');
    request.setAttribute('order-id', uniqueOrderId('wtr_both'));
    document.body.append(request);
    try {
      await (request as RequestPaymentButton).updateComplete;
      const sent = eventWithin<CustomEvent>(request, 'request-sent', 8000);
      part(request, 'button').click();
      expect((await sent).detail.pay_link).to.match(/^https?:\/\//);
    } finally {
      request.remove();
    }
  });
});
