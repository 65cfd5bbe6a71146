/**
 * The script tag when the network fails: `/paykit.js` from the service behind a proxy that cuts the downloads a
 * test names (test/support/flaky-proxy.js). A module that fails is tried again; one that keeps failing says so on
 * each of its elements and to the document, and the next chance (an element added, the browser back online) defines
 * it. Chromium runs here as 150 did and Firefox and Safari do (web-test-runner.config.js): a module URL that failed
 * once fails again without a request, so every try must ask for a URL that has not failed.
 */
import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import { cut, loadScriptTag, requestsFor } from './script-tag-helpers.ts';
import { part, realService, type PaykitTestService } from './helpers.ts';

/** Cuts `tag`'s module for good, adds an element and waits for it to say that it failed. */
async function failForGood(
  service: PaykitTestService,
  tag: string,
  errorEvent: string,
): Promise<{ element: HTMLElement; detail: { code: string; message: string } }> {
  await cut(service, `^/paykit/${tag}-`, -1);
  const element = document.createElement(tag);
  element.setAttribute('amount', '3');
  const failed = oneEvent(element, errorEvent);
  document.body.append(element);
  return { element, detail: ((await failed) as CustomEvent<{ code: string; message: string }>).detail };
}

describe('the script tag when a module fails to download', function () {
  this.timeout(20000);
  before(async function () {
    const service = realService(this);
    await loadScriptTag({ ...service, baseUrl: service.flakyBaseUrl });
  });

  it('when a module keeps failing: the element says so and fires its error with code network, the document hears paykit:load-error; once the network is back, the next element defines them, from URLs that never failed', async function () {
    const service = realService(this);
    const announced = oneEvent(document, 'paykit:load-error');
    const { element: first, detail } = await failForGood(service, 'request-payment-button', 'request-error');
    try {
      expect(detail.code).to.equal('network');
      expect(((await announced) as CustomEvent<{ tag: string }>).detail.tag).to.equal('request-payment-button');
      expect(customElements.get('request-payment-button')).to.equal(undefined);
      const fallback = first.querySelector('[role="alert"]')!;
      expect(fallback.textContent).to.equal(detail.message);
      expect(fallback.getBoundingClientRect().height, 'shown where the button would be').to.be.greaterThan(0);
      const failedUrls = await requestsFor(service, 'request-payment-button');
      expect(new Set(failedUrls).size, 'each of the four tries left the page at a URL of its own').to.be.at.least(4);

      await cut(service, '', 0);
      const second = document.createElement('request-payment-button');
      second.setAttribute('amount', '5');
      document.body.append(second);
      await customElements.whenDefined('request-payment-button');
      await waitUntil(() => !first.querySelector('[role="alert"]'), 'the fallback goes once the element is defined');
      await (first as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
      expect(part(first, 'label').textContent).to.equal('Request $3.00');
      const laterUrls = (await requestsFor(service, 'request-payment-button')).slice(failedUrls.length);
      expect(laterUrls, 'the next round asked again').to.not.be.empty;
      expect(
        laterUrls.filter((url) => failedUrls.includes(url)),
        'and never at a URL that had failed',
      ).to.deep.equal([]);
      second.remove();
    } finally {
      first.remove();
      await cut(service, '', 0);
    }
  });

  it('the browser coming back online defines the elements that failed, in place', async function () {
    const service = realService(this);
    const { element } = await failForGood(service, 'transactions-table', 'transactions-error');
    try {
      const failedUrls = await requestsFor(service, 'transactions-table');
      await cut(service, '', 0);
      dispatchEvent(new Event('online'));
      await customElements.whenDefined('transactions-table');
      await waitUntil(() => !element.querySelector('[role="alert"]'), 'the fallback goes once the element is defined');
      const laterUrls = (await requestsFor(service, 'transactions-table')).slice(failedUrls.length);
      expect(laterUrls.filter((url) => failedUrls.includes(url))).to.deep.equal([]);
    } finally {
      element.remove();
      await cut(service, '', 0);
    }
  });
});
