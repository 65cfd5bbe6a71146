/**
 * The script tag as a merchant's page uses it: `/paykit.js` from the real service, on a page that imports nothing
 * of Paykit itself. It configures the page from its tag and defines each element when one first appears.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { currentConfig } from '../../src/config.ts';
import { loadScriptTag, requested } from './script-tag-helpers.ts';
import { part, realService } from './helpers.ts';

describe('the script tag (/paykit.js)', function () {
  this.timeout(15000);
  const onPage = document.createElement('pay-button');

  before(async function () {
    const service = realService(this);
    onPage.setAttribute('amount', '4.50');
    document.body.append(onPage);
    await loadScriptTag(service);
  });
  after(() => onPage.remove());

  it('configures the page from data-public-key and its own origin', function () {
    const service = realService(this);
    expect(currentConfig()).to.deep.equal({ baseUrl: new URL(service.baseUrl).origin, publicKey: service.publicKey });
  });

  it('defines a pay button that was on the page when it loaded from the loader itself, fetching nothing else', async () => {
    await customElements.whenDefined('pay-button');
    await (onPage as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    expect(part(onPage, 'label').textContent).to.match(/\$4\.50$/);
    const fetched = performance
      .getEntriesByType('resource')
      .filter((entry) => new URL(entry.name).pathname.startsWith('/paykit/'));
    expect(
      fetched.map((entry) => entry.name),
      'no module for the pay button, nothing of the elements not on the page',
    ).to.deep.equal([]);
  });

  it('defines an element added to the document later, loading its module only then, with what it imports preloaded', async () => {
    expect(customElements.get('request-payment-button')).to.equal(undefined);
    expect(requested('request-payment-button')).to.equal(false);
    const later = document.createElement('div');
    later.innerHTML = '<request-payment-button amount="3"></request-payment-button>';
    document.body.append(later);
    try {
      await customElements.whenDefined('request-payment-button');
      expect(requested('request-payment-button')).to.equal(true);
      const preloads = Array.from(
        document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]'),
        (link) => new URL(link.href).pathname,
      );
      expect(preloads.some((path) => /^\/paykit\/request-payment-button-\w+\.js$/.test(path))).to.equal(true);
      const button = later.firstElementChild as HTMLElement & { updateComplete: Promise<unknown> };
      await button.updateComplete;
      expect(part(button, 'label').textContent).to.equal('Request $3.00');
    } finally {
      later.remove();
    }
  });

  it('defines an element inside a shadow root once it is told about that root', async function () {
    const service = realService(this);
    const host = document.createElement('div');
    const root = host.attachShadow({ mode: 'open' });
    root.innerHTML = '<transactions-table></transactions-table>';
    document.body.append(host);
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(customElements.get('transactions-table'), 'the document is watched, not shadow roots').to.equal(undefined);
      const { observe } = await import(`${service.baseUrl}/paykit.js`);
      observe(root);
      await waitUntil(() => customElements.get('transactions-table'), 'defined once observed', { timeout: 8000 });
      expect(root.querySelector('transactions-table')!.shadowRoot, 'upgraded').to.exist;
    } finally {
      host.remove();
    }
  });
});
