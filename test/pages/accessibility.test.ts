import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { assertAccessible, assertFitsWidth, launchChromium } from '../support/chromium.ts';
import { startService, type TestService } from '../support/service.ts';
import { newOnboardingLink } from './helpers.ts';

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
      await assertAccessible(page, `the API reference in HTML (${colorScheme})`);
      await assertFitsWidth(page, 'the API reference in HTML');
      await page.goto(`${service.baseUrl}/docs/interactive`);
      // Scalar draws the reference after load; the operations it lists are in the page once it has.
      await page.getByText('List your merchants, newest first').first().waitFor({ state: 'attached', timeout: 30_000 });
      await assertAccessible(page, `the interactive API reference (${colorScheme})`);
      await assertFitsWidth(page, 'the interactive API reference');
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
