/**
 * One suite for both buttons, `<pay-button>` and `<request-payment-button>`, each run twice in Chromium: rendered by
 * the script tag in the browser, and rendered on the server by `paykit/ssr` then hydrated by the same script tag.
 * What a merchant relies on must not depend on how the button got on the page: a real button with its label and
 * target size, the page's theme, no accessibility violation, and the flow it starts, by keyboard.
 * Each button's own details stay in test/elements; hydration itself (kept nodes, no shift) in hydration.test.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { Browser, Page } from 'playwright-core';
import { startService, type TestService } from '../support/service.ts';
import { approvedMerchant, nextOrderId } from '../support/payments.ts';
import { assertAccessible, launchChromium } from '../support/chromium.ts';
import { builtServerRenderer } from '../support/ssr-build.ts';

const THEME = 'rgb(10, 20, 30)';

interface ButtonCase {
  tag: 'pay-button' | 'request-payment-button';
  /** The element's markup, for the browser and for the server renderer alike. */
  markup: () => string;
  label: string;
  /** What activating it does, checked on the page. */
  starts(tab: Page): Promise<void>;
}

const BUTTONS: ButtonCase[] = [
  {
    tag: 'pay-button',
    markup: () =>
      `<pay-button class="themed" amount="25.00" order-id="${nextOrderId()}" description="Cake"></pay-button>`,
    label: 'Pay $25.00',
    async starts(tab) {
      await tab.locator('pay-button').getByRole('dialog').waitFor();
      assert.ok(await tab.locator('pay-button iframe').isVisible(), 'it made a pay link and opened the pay page');
    },
  },
  {
    tag: 'request-payment-button',
    // A fictional number (555-01xx): the service really texts it.
    markup: () =>
      `<request-payment-button class="themed" amount="5.00" recipient-phone="+1 415 555 0123" order-id="${nextOrderId()}"></request-payment-button>`,
    label: 'Request $5.00',
    async starts(tab) {
      await tab.waitForFunction(() => document.querySelector('request-payment-button')!.matches(':state(sent)'), null, {
        timeout: 15_000,
      });
      const status = await tab.evaluate(
        () => document.querySelector('request-payment-button')!.shadowRoot!.querySelector('[part=status]')!.textContent,
      );
      assert.equal(status, 'Payment request sent to +14155550123.');
    },
  },
];

const RENDERINGS = ['client-rendered', 'server-rendered and hydrated'] as const;

describe('both buttons, client-rendered and server-rendered', { timeout: 180_000 }, () => {
  let service: TestService;
  let browser: Browser;
  let pages: Server;
  let pagesUrl: string;
  let renderToString: Awaited<ReturnType<typeof builtServerRenderer>>['renderToString'];
  let html: Awaited<ReturnType<typeof builtServerRenderer>>['html'];
  let publicKey: string;
  /** The documents served, by path: each test writes the one it opens. */
  const documents = new Map<string, string>();

  before(async () => {
    let renderer: Awaited<ReturnType<typeof builtServerRenderer>>;
    [service, browser, renderer] = await Promise.all([startService(), launchChromium(), builtServerRenderer()]);
    ({ renderToString, html } = renderer);
    await approvedMerchant(service);
    publicKey = (await service.api('GET', '/merchant')).body.data[0].public_data.public_key as string;
    pages = createServer((request, response) => {
      const document = documents.get(request.url ?? '');
      if (document) response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(document);
      else response.writeHead(404).end();
    }).listen(0, '127.0.0.1');
    await once(pages, 'listening');
    const address = pages.address();
    pagesUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  after(async () => {
    await browser?.close();
    pages?.close();
    await service?.close();
  });

  /** The page a merchant writes around `markup`: the script tag, and a theme of its own for the buttons. */
  async function pageWith(path: string, rendering: (typeof RENDERINGS)[number], markup: string): Promise<Page> {
    const body =
      rendering === 'client-rendered' ? markup : await renderToString(html(Object.assign([markup], { raw: [markup] })));
    documents.set(
      path,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Buttons</title>
      <style>.themed { --paykit-primary-color: ${THEME}; }</style>
      <script type="module" src="${service.baseUrl}/paykit.js" data-public-key="${publicKey}"></script></head>
      <body><main><h1>Checkout</h1>${body}</main></body></html>`,
    );
    const tab = await browser.newPage();
    await tab.goto(`${pagesUrl}${path}`);
    return tab;
  }

  for (const rendering of RENDERINGS) {
    for (const button of BUTTONS) {
      test(`<${button.tag}> ${rendering}: a labelled, themed button of the target size, accessible, that starts its flow by keyboard`, async () => {
        const path = `/${button.tag}/${rendering === 'client-rendered' ? 'client' : 'server'}`;
        const tab = await pageWith(path, rendering, button.markup());
        try {
          const problems: string[] = [];
          tab.on('pageerror', (error) => problems.push(error.message));
          await tab.waitForFunction(
            (tag) => (document.querySelector(tag) as (HTMLElement & { hasUpdated?: boolean }) | null)?.hasUpdated,
            button.tag,
          );
          const control = tab.locator(button.tag).getByRole('button', { name: button.label });
          const box = await control.boundingBox();
          assert.ok(box && box.height >= 44, `at least 44 px high (${box?.height})`);
          assert.equal(
            await control.evaluate((element) => getComputedStyle(element).backgroundColor),
            THEME,
            'themed by the page',
          );
          if (rendering !== 'client-rendered') {
            assert.match(
              documents.get(path)!,
              new RegExp(`<${button.tag}[^>]*><template shadowroot="open" shadowrootmode="open">`),
              'served with declarative shadow DOM',
            );
            const rendered = await tab.evaluate(
              (tag) => document.querySelector(tag)!.shadowRoot!.querySelectorAll('[part=base]').length,
              button.tag,
            );
            assert.equal(rendered, 1, 'the server’s markup kept, not doubled');
          }
          await assertAccessible(tab, `<${button.tag}> ${rendering}`);

          await tab.keyboard.press('Tab');
          assert.equal(
            await tab.evaluate((tag) => document.activeElement?.localName === tag, button.tag),
            true,
            'the first stop of the keyboard',
          );
          await tab.keyboard.press('Enter');
          await button.starts(tab);
          assert.deepEqual(problems, []);
        } finally {
          await tab.close();
        }
      });
    }
  }
});
