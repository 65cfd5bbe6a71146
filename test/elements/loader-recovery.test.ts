/**
 * The script tag when the network fails: `/paykit.js` from the service behind a proxy that cuts the downloads a
 * test names (test/support/flaky-proxy.js). A module that fails is tried again; one that keeps failing says so on
 * each of its elements and to the document, and the next chance defines it.
 */
import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import { loadScriptTag } from './script-tag-helpers.ts';
import { part, realService, type PaykitTestService } from './helpers.ts';

async function cut(service: PaykitTestService, pattern: string, times: number): Promise<void> {
  await fetch(`${service.flakyBaseUrl}/__faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pattern, times }) });
}

describe('the script tag when a module fails to download', function () {
  this.timeout(20000);

  it('tries a module that failed again, and the element works', async function () {
    const service = realService(this);
    // The preload and the first import of the pay button's module are both cut.
    await cut(service, '^/paykit/pay-button-', 2);
    const button = document.createElement('pay-button');
    button.setAttribute('amount', '4.50');
    document.body.append(button);
    let errors = 0;
    button.addEventListener('pay-error', () => errors++);
    try {
      await loadScriptTag({ ...service, baseUrl: service.flakyBaseUrl });
      await customElements.whenDefined('pay-button');
      await (button as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
      expect(part(button, 'label').textContent).to.match(/\$4\.50$/);
      expect(errors).to.equal(0);
    } finally {
      button.remove();
    }
  });

  it('when a module keeps failing: the element says so and fires its error with code network, the document hears paykit:load-error; once the network is back, the next element defines them', async function () {
    const service = realService(this);
    await cut(service, '^/paykit/request-payment-button-', -1);
    const first = document.createElement('request-payment-button');
    first.setAttribute('amount', '3');
    const failed = oneEvent(first, 'request-error');
    const announced = oneEvent(document, 'paykit:load-error');
    document.body.append(first);
    try {
      const event = (await failed) as CustomEvent<{ code: string; message: string }>;
      expect(event.detail.code).to.equal('network');
      expect(((await announced) as CustomEvent<{ tag: string }>).detail.tag).to.equal('request-payment-button');
      expect(customElements.get('request-payment-button')).to.equal(undefined);
      const fallback = first.querySelector('[role="alert"]')!;
      expect(fallback.textContent).to.equal(event.detail.message);
      expect(fallback.getBoundingClientRect().height, 'shown where the button would be').to.be.greaterThan(0);

      await cut(service, '', 0);
      const second = document.createElement('request-payment-button');
      second.setAttribute('amount', '5');
      document.body.append(second);
      await customElements.whenDefined('request-payment-button');
      await waitUntil(() => !first.querySelector('[role="alert"]'), 'the fallback goes once the element is defined');
      await (first as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
      expect(part(first, 'label').textContent).to.equal('Request $3.00');
      second.remove();
    } finally {
      first.remove();
      await cut(service, '', 0);
    }
  });
});
