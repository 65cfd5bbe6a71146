/**
 * The script tag when a module's download fails a few times: `/paykit.js` from the service behind a proxy that cuts
 * the downloads a test names (test/support/flaky-proxy.js). The loader tries again, each time at a URL that never
 * failed, and the element works without a word of it to the page. (The pay button has no module to fail: it comes in
 * `/paykit.js`. loader-recovery.test.ts has the modules that keep failing.)
 */
import { expect } from '@open-wc/testing';
import { cut, loadScriptTag, requestsFor } from './script-tag-helpers.ts';
import { part, realService } from './helpers.ts';

describe('the script tag when a module fails to download twice', function () {
  this.timeout(20000);

  it('tries it again, and the element works', async function () {
    const service = realService(this);
    // The preload and the first import of the payment request button's module are both cut.
    await cut(service, '^/paykit/request-payment-button-', 2);
    const button = document.createElement('request-payment-button');
    button.setAttribute('amount', '4.50');
    document.body.append(button);
    let errors = 0;
    button.addEventListener('request-error', () => errors++);
    try {
      await loadScriptTag({ ...service, baseUrl: service.flakyBaseUrl });
      await customElements.whenDefined('request-payment-button');
      await (button as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
      expect(part(button, 'label').textContent).to.equal('Request $4.50');
      expect(errors).to.equal(0);
      expect((await requestsFor(service, 'request-payment-button')).length, 'cut twice, then fetched').to.be.at.least(
        3,
      );
    } finally {
      button.remove();
      await cut(service, '', 0);
    }
  });
});
