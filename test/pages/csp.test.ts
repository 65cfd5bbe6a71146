/**
 * The widgets on a merchant's page under a strict Content-Security-Policy, in Chromium: the policy of docs/csp.md
 * (read from the document itself, so the two cannot drift) with Trusted Types required pays, requests and lists
 * with no violation at all; a policy that lacks a directive gives the code `csp`, a short sentence for the payer and, for the developer, the
 * directive to add (in the event's `developerMessage` and the console);
 * and the pay outcome reaches the page from the pay link's own origin in well under the polling interval, whether
 * the service's public URL is the address the page calls or another.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium.ts';

import { startService, type TestService } from '../support/service.ts';
import { validApplication } from '../support/fixtures.ts';
import { APPROVE } from './pay-helpers.ts';

const SHOPPER_CSP = 'This page cannot reach the payment service. Please let the shop know.';

/** The policy docs/csp.md gives merchants, for a service at `service` whose pay links are at `payLinks`. */
function documentedPolicy(service: string, payLinks: string): string {
  const doc = readFileSync(new URL('../../docs/csp.md', import.meta.url), 'utf8');
  const policy = /```http\nContent-Security-Policy: (.+)\n```/.exec(doc)?.[1];
  assert.ok(policy, 'docs/csp.md holds the policy');
  return policy
    .replace(/frame-src https:\/\/pay\.example\.com/, `frame-src ${payLinks}`)
    .replaceAll('https://pay.example.com', service);
}

/** What the test page records: every Paykit event, and every refusal of its policy. */
const PAGE_SCRIPT = `
window.events = [];
window.violations = [];
document.addEventListener('securitypolicyviolation', (e) => violations.push(e.effectiveDirective + ' ' + e.blockedURI));
addEventListener('message', (e) => { if (e.data && e.data.type === 'test:submitted') window.submittedAt = e.data.at; });
for (const type of ['pay-success', 'pay-error', 'pay-cancel', 'request-sent', 'request-error', 'transactions-load', 'transactions-error']) {
  document.addEventListener(type, (e) => events.push({ type, detail: e.detail, at: performance.timeOrigin + performance.now() }));
}`;

interface MerchantPage {
  origin: string;
  /** Serves the next page with this policy. */
  policy: string;
  server: Server;
}

async function startMerchantPage(service: TestService, publicKey: string, sessionToken: string): Promise<MerchantPage> {
  const site = { origin: '', policy: '', server: undefined as unknown as Server };
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
    <script src="/page.js"></script>
    <script type="module" src="${service.baseUrl}/paykit.js" data-public-key="${publicKey}"></script></head>
    <body><h1>Shop</h1>
    <pay-button amount="12.00" show-qr></pay-button>
    <request-payment-button amount="3.00" recipient-phone="+14155550142"></request-payment-button>
    <transactions-table session-token="${sessionToken}" page-size="5"></transactions-table></body></html>`;
  site.server = createServer((request, response) => {
    if (request.url === '/page.js')
      return response.writeHead(200, { 'content-type': 'text/javascript' }).end(PAGE_SCRIPT);
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': site.policy })
      .end(body);
  }).listen(0, '127.0.0.1');
  await once(site.server, 'listening');
  const address = site.server.address();
  site.origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return site;
}

async function merchantOf(service: TestService) {
  const onboarded = await service.api('POST', '/onboarding', { json: validApplication() });
  await service.api('POST', '/approve-merchant', { json: { merchant_id: onboarded.body.data.merchant_id } });
  const session = await service.api('POST', '/widgets/sessions', {
    json: { merchant_key: onboarded.body.data.merchant_key },
  });
  return {
    publicKey: onboarded.body.data.public_key as string,
    sessionToken: session.body.data.session_token as string,
  };
}

const recorded = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { events: { type: string; detail: Record<string, unknown>; at: number }[] }).events,
  );
const violations = (page: Page) => page.evaluate(() => (window as unknown as { violations: string[] }).violations);
const eventOf = async (page: Page, type: string, timeout = 10_000) => {
  await page.waitForFunction(
    (name) => (window as unknown as { events: { type: string }[] }).events.some((e) => e.type === name),
    type,
    { timeout },
  );
  return (await recorded(page)).find((e) => e.type === type)!;
};

/**
 * Opens the pay dialog, pays with the test card in its frame, and answers the milliseconds from the form's submit
 * event (recorded in the frame, on the same clock) to the page's pay-success.
 */
async function payInDialog(page: Page): Promise<number> {
  await page.click('pay-button [part="button"]');
  const frameLocator = page.frameLocator('pay-button iframe[part="frame"]');
  await frameLocator.locator('#card-number').fill(APPROVE);
  await frameLocator.locator('#card-exp').fill(`12 / ${String(new Date().getUTCFullYear() + 2).slice(2)}`);
  await frameLocator.locator('#card-cvc').fill('123');
  const frame = (await (await page.locator('pay-button iframe[part="frame"]').elementHandle())!.contentFrame())!;
  // The frame goes with the dialog once paid: it tells the page when it was submitted.
  await frame.evaluate(() =>
    document.getElementById('card-form')!.addEventListener('submit', () => {
      window.parent.postMessage({ type: 'test:submitted', at: performance.timeOrigin + performance.now() }, '*');
    }),
  );
  await frameLocator.locator('#card-form button[type=submit]').click();
  const success = await eventOf(page, 'pay-success');
  const submitted = await page.evaluate(() => (window as unknown as { submittedAt: number }).submittedAt);
  return success.at - submitted;
}

for (const publicHostname of ['127.0.0.1', 'localhost']) {
  const sameOrigin = publicHostname === '127.0.0.1';
  describe(`the widgets under docs/csp.md's policy, pay links ${sameOrigin ? 'on the address the page calls' : 'on another origin (PAYKIT_PUBLIC_URL)'}`, () => {
    let service: TestService;
    let browser: Browser;
    let site: MerchantPage;
    let payLinks: string;
    before(async () => {
      service = await startService({ publicHostname });
      payLinks = service.baseUrl.replace('127.0.0.1', publicHostname);
      const { publicKey, sessionToken } = await merchantOf(service);
      site = await startMerchantPage(service, publicKey, sessionToken);
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      site?.server.close();
      await service?.close();
    });

    test('pays, requests and lists with Trusted Types required and 0 violations; the outcome arrives by message, not by polling', async () => {
      site.policy = documentedPolicy(service.baseUrl, payLinks);
      assert.match(site.policy, /require-trusted-types-for 'script'/);
      const timings: number[] = [];
      for (let run = 0; run < 2; run++) {
        const context = await browser.newContext();
        const page = await context.newPage();
        const consoleErrors: string[] = [];
        page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
        await page.goto(site.origin);
        assert.equal((await eventOf(page, 'transactions-load')).type, 'transactions-load');
        if (run === 0) {
          await page.click('request-payment-button [part="button"]');
          assert.match(String((await eventOf(page, 'request-sent')).detail.pay_link), new RegExp(`^${payLinks}/pay/`));
        }
        timings.push(await payInDialog(page));
        const qr = page.locator('pay-button [part="qr-image"]');
        if (await qr.count()) assert.match(String(await qr.getAttribute('src')), /^data:image\/png/);
        assert.deepEqual(await violations(page), [], 'no violation of the policy');
        assert.deepEqual(
          consoleErrors.filter((text) => /Content Security Policy|TrustedHTML|Trusted Type/i.test(text)),
          [],
        );
        assert.deepEqual(
          (await recorded(page)).filter((e) => e.type.endsWith('-error')),
          [],
        );
        await context.close();
      }
      // The faster of two runs, under half the 2 s that polling alone would take: the outcome came by message. (This
      // tells the two paths apart; it is not a speed test: 60-250 ms here, depending on the machine's load.)
      const best = Math.min(...timings);
      console.log(
        `submit → pay-success: ${timings.map((ms) => `${Math.round(ms)} ms`).join(', ')} (${sameOrigin ? 'same origin' : 'pay links on another origin'})`,
      );
      assert.ok(best < 1000, `submit → pay-success took ${Math.round(best)} ms`);
    });

    test('a policy without the service in connect-src: the elements say so (code csp), the directive for the developer only', async () => {
      site.policy = documentedPolicy(service.baseUrl, payLinks).replace(/connect-src [^;]+/, "connect-src 'self'");
      const page = await (await browser.newContext()).newPage();
      const logged: string[] = [];
      page.on('console', (message) => message.type() === 'error' && logged.push(message.text()));
      await page.goto(site.origin);
      const developerMessage = `The page's Content-Security-Policy blocks ${service.baseUrl} (connect-src): add ${service.baseUrl} to its connect-src directive.`;
      const tableError = await eventOf(page, 'transactions-error');
      assert.deepEqual(tableError.detail, { code: 'csp', message: SHOPPER_CSP, developerMessage });
      await page.click('pay-button [part="button"]');
      const payError = await eventOf(page, 'pay-error');
      assert.deepEqual(payError.detail, { code: 'csp', message: SHOPPER_CSP, developerMessage });
      assert.equal(String(await page.locator('pay-button [part="error"]').textContent()).trim(), SHOPPER_CSP);
      assert.ok(logged.includes(developerMessage), `the console has the directive: ${JSON.stringify(logged)}`);
      await page.context().close();
    });

    test('a policy without the pay links in frame-src: the pay button says so as the dialog opens', async () => {
      site.policy = documentedPolicy(service.baseUrl, payLinks).replace(/frame-src [^;]+/, "frame-src 'self'");
      const page = await (await browser.newContext()).newPage();
      await page.goto(site.origin);
      await page.click('pay-button [part="button"]');
      const payError = await eventOf(page, 'pay-error');
      assert.deepEqual(payError.detail, {
        code: 'csp',
        message: SHOPPER_CSP,
        developerMessage: `The page's Content-Security-Policy blocks ${payLinks} (frame-src): add ${payLinks} to its frame-src directive.`,
      });
      assert.equal(String(await page.locator('pay-button [part="error"]').textContent()).trim(), SHOPPER_CSP);
      assert.equal(
        await page.locator('pay-button [part="dialog"]').evaluate((dialog: HTMLDialogElement) => dialog.open),
        false,
      );
      await page.context().close();
    });
  });
}
