/**
 * The pay page puts paying first, in Chromium with the page's own CSP: on a 360 × 640 phone the card number field is
 * on the first screen, with every adjustment, both methods and the sandbox help on the page; after a decline the form
 * keeps the name and the expiry, the card number and code are empty, and the focus is on what went wrong.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium.ts';
import type { MerchantAccount } from '../../server/store/merchants.ts';
import { startService, type TestService } from '../support/service.ts';
import { APPROVE, DECLINE, approvedMerchant, newPayLink } from './pay-helpers.ts';

const PHONE = { width: 360, height: 640 };
const expiry = `12 / ${String(new Date().getUTCFullYear() + 2).slice(2)}`;

/** Whether the element's whole box is inside the viewport, as the page first shows (no scrolling). */
async function onFirstScreen(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).boundingBox();
  assert.ok(box, `${selector} is shown`);
  const scrolled = await page.evaluate(() => window.scrollY);
  return (
    scrolled === 0 && box.y >= 0 && box.x >= 0 && box.y + box.height <= PHONE.height && box.x + box.width <= PHONE.width
  );
}

describe('the pay page on a phone puts paying first', () => {
  let service: TestService;
  let browser: Browser;
  let merchant: MerchantAccount;
  before(async () => {
    service = await startService();
    merchant = await approvedMerchant(service, 'Corner Bakery & Coffee Roasters');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await service.close();
  });

  test('at 360 × 640 the card number field and the bank choice are on the first screen, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport: PHONE, colorScheme });
      const page = await context.newPage();
      const link = await newPayLink(service, merchant, {
        amount: '42.00',
        discount: '2.00',
        tax: '3.10',
        pass_fee: true,
        description: 'A long description of two loaves of sourdough and a bag of beans',
        invoice_number: 'INV2031',
      });
      await page.goto(`${service.baseUrl}${link.path}`);
      assert.ok(
        await onFirstScreen(page, '#card-number'),
        `the card number field is on the first screen (${colorScheme})`,
      );
      assert.ok(await onFirstScreen(page, 'label[for=choose-ach]'), 'the bank is one tap away');
      assert.ok(await onFirstScreen(page, '.pay-total >> visible=true'), 'the total is in the header');
      assert.equal(await page.isVisible('text=INV2031'), false, 'the details wait in their summary');
      assert.equal(await page.isVisible('text=4242 4242 4242 4242'), false, 'the sandbox help waits in its summary');
      await page.click('summary:has-text("Order details")');
      assert.equal(await page.isVisible('text=INV2031'), true);
      await context.close();
    }
  });

  test('a decline keeps the name and the expiry, empties the card number and code, and focuses what went wrong', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const link = await newPayLink(service, merchant, { amount: '9.00' });
    await page.goto(`${service.baseUrl}${link.path}`);
    await page.locator('#card-number').pressSequentially(DECLINE);
    await page.locator('#card-exp').pressSequentially(expiry.replace(/\D/g, ''));
    await page.locator('#card-cvc').pressSequentially('123');
    await page.fill('#card-name', 'Jane Doe');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.keyboard.press('Enter'),
    ]);
    assert.equal(response.status(), 402);
    await page.waitForSelector('#error-summary');

    assert.equal(await page.inputValue('#card-name'), 'Jane Doe');
    assert.equal(await page.inputValue('#card-exp'), expiry);
    assert.equal(await page.inputValue('#card-number'), '');
    assert.equal(await page.inputValue('#card-cvc'), '');
    assert.ok(
      ['error-summary', 'card-number'].includes(await page.evaluate(() => document.activeElement?.id ?? '')),
      'the focus is on the message',
    );
    assert.match(
      (await page.textContent('#error-summary')) ?? '',
      /Payment declined[\s\S]*Your card was declined\.[\s\S]*Nothing was charged\./,
    );
    assert.ok(await onFirstScreen(page, '#error-summary'), 'the message is seen first');

    // The message's link leads to the field to fix; the shopper types the new card and pays.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'card-number');
    await page.keyboard.type(APPROVE);
    await page.locator('#card-cvc').pressSequentially('123');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    assert.equal(await page.textContent('h1'), 'Payment successful');
    await context.close();
  });
});
