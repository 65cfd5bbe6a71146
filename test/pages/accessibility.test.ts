import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible, assertFitsWidth, launchChromium } from '../support/chromium.ts';
import { startService, type TestService } from '../support/service.ts';
import { validApplication } from '../support/fixtures.ts';
import { formBody, newOnboardingLink } from './helpers.ts';


/** Types the application into the form as a merchant would. */
async function fillForm(page: Page, fields: Record<string, string>) {
  for (const [name, value] of Object.entries(fields)) {
    if (name === 'agree') continue;
    const control = page.locator(`[name="${name}"]`);
    if ((await control.evaluate((el) => el.tagName)) === 'SELECT') await control.selectOption(value);
    else await control.fill(value);
  }
  await page.check('#agree');
}

describe('hosted pages in Chromium', () => {
  let service: TestService;
  let browser: Browser;
  before(async () => {
    service = await startService();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await service.close();
  });

  test('the onboarding form, its errors and the thank-you page are accessible, and a real form post works', async () => {
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    const link = await newOnboardingLink(service, { business_name: 'Blue Bottle Cafe' });

    const opened = await page.goto(link.url);
    assert.equal(opened?.status(), 200);
    assert.equal(await page.inputValue('#BusinessInfo-business_name'), 'Blue Bottle Cafe');
    await assertAccessible(page, 'the form');

    const fields = formBody(validApplication({ BusinessInfo: { ein: '12' } }));
    await fillForm(page, fields);
    const [refused] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.click('button[type=submit]')]);
    assert.equal(refused.status(), 400);
    await page.waitForSelector('.summary[role=alert]');
    assert.equal(await page.getAttribute('#BusinessInfo-ein', 'aria-invalid'), 'true');
    assert.equal(await page.inputValue('#OwnerInfo-ssn'), '', 'the SSN must be typed again');
    assert.equal(await page.inputValue('#OwnerInfo-first_name'), 'Jane');
    await assertAccessible(page, 'the form with errors');

    await page.fill('#BusinessInfo-ein', '12-3456789');
    await page.fill('#OwnerInfo-ssn', fields['OwnerInfo.ssn']!);
    await page.fill('#BankingInfo-account_number', fields['BankingInfo.account_number']!);
    const [accepted] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.click('button[type=submit]')]);
    assert.equal(accepted.status(), 200);
    await page.waitForSelector('h1:has-text("Thank you")');
    await assertAccessible(page, 'the thank-you page');

    const merchants = await service.api('GET', '/merchant');
    const merchant = merchants.body.data.find((m: { merchant_id: string }) => m.merchant_id === link.merchantId);
    assert.equal(merchant?.first_name, 'Jane', 'the browser-submitted application reached the service');
    await context.close();
  });

  test('the portal, its credentials page, the API reference and the home page are accessible, light and dark, on a phone', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ bypassCSP: true, colorScheme, viewport: { width: 360, height: 740 } });
      const page = await context.newPage();
      await page.goto(`${service.baseUrl}/portal`);
      await assertAccessible(page, `the portal (${colorScheme})`);
      await assertFitsWidth(page, 'the portal');
      await page.click('button:has-text("Create sandbox credentials")');
      await page.waitForSelector('h1:has-text("Your sandbox credentials")');
      await assertAccessible(page, `the credentials page (${colorScheme})`);
      await assertFitsWidth(page, 'the credentials page');
      await page.goto(`${service.baseUrl}/docs`);
      // Scalar draws the reference after load; the operations it lists are in the page once it has.
      await page.getByText('List your merchants, newest first').first().waitFor({ state: 'attached', timeout: 30_000 });
      await assertAccessible(page, `the API reference (${colorScheme})`);
      await assertFitsWidth(page, 'the API reference');
      await page.goto(`${service.baseUrl}/`);
      await assertAccessible(page, `the home page (${colorScheme})`);
      const form = await page.goto((await newOnboardingLink(service)).url);
      assert.equal(form?.status(), 200);
      await assertAccessible(page, `the form (${colorScheme})`);
      await assertFitsWidth(page, 'the form');
      await context.close();
    }
  });
});
