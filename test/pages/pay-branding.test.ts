/**
 * The merchant's and the platform's brand on the hosted pay page in Chromium, with the page's own CSP: the logo
 * loads (img-src 'self'), the brand's colour keeps every state axe-clean in light and dark (a light yellow colours
 * no link on a light page), and a shopper pays by keyboard alone. Screenshots at 360 and 1280 px go to
 * test-artifacts/pages/ (docs/images/hosted-*.png are copies).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import QRCode from 'qrcode';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible, assertFitsWidth, launchChromium } from '../support/chromium.ts';
import { startService, type TestService } from '../support/service.ts';
import { validApplication } from '../support/fixtures.ts';
import type { MerchantAccount } from '../../server/store/merchants.ts';
import { APPROVE, DECLINE, newPayLink } from './pay-helpers.ts';

const ARTIFACTS = 'test-artifacts/pages';
const expiry = `12${String(new Date().getUTCFullYear() + 2).slice(2)}`;

async function brandedMerchant(service: TestService, name: string): Promise<MerchantAccount & { key: string }> {
  const onboarded = await service.api('POST', '/onboarding', {
    json: validApplication({ BusinessInfo: { business_name: name } }),
  });
  const { merchant_id: id, merchant_key: key } = onboarded.body.data;
  assert.equal((await service.api('POST', '/approve-merchant', { json: { merchant_id: id } })).status, 200);
  return { ...(await service.store.merchants.findById(service.client.clientId, id))!, key };
}

/** Tabs until `selector` has the focus, at most `limit` times. */
async function tabTo(page: Page, selector: string, limit = 12) {
  for (let i = 0; i < limit; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`${selector} is reached by Tab`);
}

const logoLoaded = (page: Page) =>
  page.evaluate(() => {
    const img = document.querySelector<HTMLImageElement>('header img');
    return img ? img.complete && img.naturalWidth > 0 : false;
  });

describe('the brand on the hosted pay page in Chromium', () => {
  let service: TestService;
  let browser: Browser;
  before(async () => {
    service = await startService();
    browser = await launchChromium();
    mkdirSync(ARTIFACTS, { recursive: true });
    const logo = await QRCode.toBuffer('Harbor Commerce', {
      type: 'png',
      width: 80,
      margin: 1,
      color: { dark: '#1d4ed8' },
    });
    assert.equal(
      (
        await service.api('PUT', '/client/branding', {
          json: { name: 'Harbor Commerce', primary_color: '#ffd400', logo: logo.toString('base64') },
        })
      ).status,
      200,
    );
  });
  after(async () => {
    await browser?.close();
    await service.close();
  });

  test("the platform's brand, then the merchant's: logo loaded, axe-clean light and dark, paid by keyboard alone", async () => {
    const merchant = await brandedMerchant(service, 'Juniper Coffee Co.');
    for (const colorScheme of ['light', 'dark'] as const) {
      // Axe is a script of its own: these pages are checked without their CSP, the one below with it.
      const context = await browser.newContext({ bypassCSP: true, colorScheme, viewport: { width: 360, height: 640 } });
      const page = await context.newPage();
      await page.goto(
        `${service.baseUrl}${(await newPayLink(service, merchant, { amount: '12.00', description: 'House blend' })).path}`,
      );
      assert.equal(await logoLoaded(page), true, "the platform's logo loads");
      assert.equal(await page.textContent('header .brand span'), 'Juniper Coffee Co.');
      assert.equal(await page.textContent('footer'), 'Powered by Paykit');
      await assertAccessible(page, `the pay page in the platform's yellow (${colorScheme})`);
      await context.close();
    }
    const strict = await browser.newContext();
    const strictPage = await strict.newPage();
    const blocked: string[] = [];
    strictPage.on(
      'console',
      (message) => void (/Content Security Policy/i.test(message.text()) && blocked.push(message.text())),
    );
    await strictPage.goto(`${service.baseUrl}${(await newPayLink(service, merchant)).path}`);
    assert.equal(await logoLoaded(strictPage), true, "the logo loads under the page's own CSP (img-src 'self')");
    assert.deepEqual(blocked, [], 'the CSP blocked nothing');
    await strict.close();

    const logo = await QRCode.toBuffer('Juniper', { type: 'png', width: 72, margin: 1, color: { dark: '#2f5d50' } });
    const set = await service.api('PUT', '/widgets/', {
      json: { merchant_key: merchant.key, primary_color: '#2f5d50', logo: logo.toString('base64') },
    });
    assert.equal(set.status, 200, set.text);
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ bypassCSP: true, colorScheme, viewport: { width: 360, height: 640 } });
      const page = await context.newPage();
      await page.goto(
        `${service.baseUrl}${(await newPayLink(service, merchant, { amount: '12.00', description: 'House blend', tax: '0.96' })).path}`,
      );
      assert.equal(await logoLoaded(page), true);
      assert.equal(
        await page.getAttribute('header img', 'src'),
        new URL(set.body.data.logo.url).pathname,
        "the merchant's logo over the platform's",
      );
      assert.equal(
        await page.evaluate(() => getComputedStyle(document.querySelector('#card-form button')!).backgroundColor),
        'rgb(47, 93, 80)',
      );
      await assertAccessible(page, `the pay page in the merchant's green (${colorScheme})`);
      if (colorScheme === 'light') await page.screenshot({ path: `${ARTIFACTS}/hosted-pay-360.png` });

      // By keyboard alone: a decline first, then the payment.
      await tabTo(page, '#card-number');
      await page.keyboard.type(DECLINE);
      await page.keyboard.press('Tab');
      await page.keyboard.type(expiry);
      await page.keyboard.press('Tab');
      await page.keyboard.type('123');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Jane Doe');
      await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
      // `autofocus` is applied at the page's next rendering, which may come after its load event on a busy machine.
      await page
        .waitForFunction(() => document.activeElement?.id === 'error-summary', undefined, { timeout: 5000 })
        .catch(() => {});
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'error-summary');
      await assertAccessible(page, `a decline in the merchant's brand (${colorScheme})`);
      await assertFitsWidth(page, 'a decline');
      if (colorScheme === 'light') await page.screenshot({ path: `${ARTIFACTS}/hosted-pay-declined-360.png` });
      await tabTo(page, '#card-number');
      await page.keyboard.type(APPROVE);
      await tabTo(page, '#card-cvc');
      await page.keyboard.type('123');
      await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
      assert.equal(await page.textContent('h1'), 'Payment successful');
      assert.equal(await logoLoaded(page), true, 'the receipt has the brand too');
      await assertAccessible(page, `the receipt in the merchant's brand (${colorScheme})`);
      await context.close();
    }

    const wide = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await wide.newPage();
    await page.goto(
      `${service.baseUrl}${(await newPayLink(service, merchant, { amount: '12.00', description: 'House blend' })).path}`,
    );
    await page.click('summary:has-text("Order details")');
    await page.screenshot({ path: `${ARTIFACTS}/hosted-pay-1280.png` });
    await assertFitsWidth(page, 'the branded pay page at 1280 px');
    await wide.close();
  });
});
