import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible, assertFitsWidth, launchChromium } from '../support/chromium.ts';
import type { MerchantAccount } from '../../server/store/merchants.ts';
import { startService, type TestService } from '../support/service.ts';
import { APPROVE, CHALLENGE, DECLINE, approvedMerchant, newPayLink } from './pay-helpers.ts';

/** A radio button's target is its label, which wraps it (clicking anywhere on it chooses). */
async function assertLargeTargets(page: Page, what: string) {
  const small = await page.evaluate(() =>
    [...document.querySelectorAll('button, input:not([type=hidden])')]
      .filter((el) => el.checkVisibility())
      .filter(
        (el) =>
          ((el as HTMLInputElement).type === 'radio' ? el.closest('label')! : el).getBoundingClientRect().height < 44,
      )
      .map((el) => el.id || el.textContent),
  );
  assert.deepEqual(small, [], `every control of ${what} is at least 44px high`);
}

async function fillCard(page: Page, number: string) {
  await page.fill('#card-name', 'Jane Doe');
  await page.fill('#card-number', number);
  await page.fill('#card-exp', `12 / ${String(new Date().getUTCFullYear() + 3).slice(2)}`);
  await page.fill('#card-cvc', '123');
}

/** Clicks a submit button and answers the status of the form post it makes. */
async function submit(page: Page, selector: string): Promise<number> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST'),
    page.click(selector),
  ]);
  await page.waitForLoadState();
  return response.status();
}

describe('hosted pay page in Chromium', () => {
  let service: TestService;
  let browser: Browser;
  let merchant: MerchantAccount;
  before(async () => {
    service = await startService();
    merchant = await approvedMerchant(service);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await service.close();
  });

  test('the pay page, its errors, the 3-D Secure step and the outcome pages are accessible, light and dark, on a phone', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ bypassCSP: true, colorScheme, viewport: { width: 360, height: 740 } });
      const page = await context.newPage();
      const link = await newPayLink(service, merchant, {
        amount: '42.00',
        discount: '2.00',
        tax: '3.10',
        pass_fee: true,
        description: 'Dinner for two',
        invoice_number: 'INV7',
      });

      assert.equal((await page.goto(`${service.baseUrl}${link.path}`))?.status(), 200);
      await assertAccessible(page, `the pay page (${colorScheme})`);
      await assertFitsWidth(page, 'the pay page');
      await assertLargeTargets(page, 'the pay page');

      // A number the page's own check accepts (Luhn) and the service refuses (not a sandbox card): the service's error state.
      await fillCard(page, '4111111111111111');
      assert.equal(await submit(page, '#card-form button[type=submit]'), 400);
      await page.waitForSelector('.summary[role=alert]');
      assert.equal(await page.inputValue('#card-number'), '', 'the card number must be typed again');
      assert.equal(await page.getAttribute('#card-number', 'aria-invalid'), 'true');
      await assertAccessible(page, `the pay page with an error (${colorScheme})`);
      await assertFitsWidth(page, 'the pay page with an error');

      await fillCard(page, DECLINE);
      assert.equal(await submit(page, '#card-form button[type=submit]'), 402);
      await page.waitForSelector('h2:has-text("Payment declined")');
      await assertAccessible(page, `the pay page after a decline (${colorScheme})`);
      await assertFitsWidth(page, 'the pay page after a decline');

      // The bank's choice, by keyboard: the arrow key moves the choice and shows the bank form only.
      await page.focus('#choose-card');
      await page.keyboard.press('ArrowRight');
      assert.equal(await page.isChecked('#choose-ach'), true);
      assert.equal(await page.isVisible('#ach-routing'), true);
      assert.equal(await page.isVisible('#card-number'), false);
      await assertAccessible(page, `the pay page with the bank chosen (${colorScheme})`);
      await assertLargeTargets(page, 'the pay page with the bank chosen');
      await page.keyboard.press('ArrowLeft');
      assert.equal(await page.isVisible('#card-number'), true);
      await page.click('summary:has-text("Order details")');
      await assertAccessible(page, `the pay page with its details open (${colorScheme})`);
      await page.click('summary:has-text("Sandbox test details")');
      await assertAccessible(page, `the pay page with the sandbox help open (${colorScheme})`);

      await fillCard(page, CHALLENGE);
      assert.equal(await submit(page, '#card-form button[type=submit]'), 200);
      await page.waitForSelector('text=Your bank asks you to confirm this payment');
      await assertAccessible(page, `the challenge page (${colorScheme})`);
      await assertFitsWidth(page, 'the challenge page');
      await assertLargeTargets(page, 'the challenge page');
      assert.equal(await submit(page, 'button:has-text("Pass")'), 200);
      await page.waitForSelector('h1:has-text("Payment successful")');
      await assertAccessible(page, `the success page (${colorScheme})`);
      await assertFitsWidth(page, 'the success page');

      const achLink = await newPayLink(service, merchant, { allow_card: false });
      await page.goto(`${service.baseUrl}${achLink.path}`);
      await page.fill('#ach-name', 'Jane Doe');
      await page.fill('#ach-routing', '110000000');
      await page.fill('#ach-account', '000123456789');
      assert.equal(await submit(page, '#ach-form button[type=submit]'), 200);
      await page.waitForSelector('h1:has-text("Payment submitted")');
      await assertAccessible(page, `the pending page (${colorScheme})`);
      await context.close();
    }
  });

  test('a customer pays by card in the browser, with the CSP enforced, and the opener hears of it', async () => {
    const context = await browser.newContext();
    const opener = await context.newPage();
    await opener.goto(`${service.baseUrl}/`);
    await opener.evaluate(() => {
      const heard: unknown[] = [];
      (window as unknown as { heard: unknown[] }).heard = heard;
      window.addEventListener('message', (event) => heard.push({ origin: event.origin, data: event.data }));
    });
    const link = await newPayLink(service, merchant, { amount: '19.99' });
    const payUrl = `${service.baseUrl}${link.path}?origin=${encodeURIComponent(service.baseUrl)}`;
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      opener.evaluate((url) => void window.open(url), payUrl),
    ]);
    const blocked: string[] = [];
    popup.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    await popup.waitForSelector('#card-form');

    await fillCard(popup, APPROVE);
    assert.equal(await submit(popup, '#card-form button[type=submit]'), 200);
    await popup.waitForSelector('h1:has-text("Payment successful")');
    assert.ok(await popup.isVisible(`text=${link.request.sales_id}`), 'the success page names the transaction');

    await opener.waitForFunction(() => (window as unknown as { heard: unknown[] }).heard.length > 0, undefined, {
      timeout: 5000,
    });
    const heard = await opener.evaluate(() => (window as unknown as { heard: unknown[] }).heard);
    assert.deepEqual(heard, [
      {
        origin: service.baseUrl,
        data: {
          type: 'paykit:payment',
          status: 'approved',
          transaction_id: link.request.sales_id,
          amount: 19.99,
          order_id: link.request.order_id,
        },
      },
    ]);
    assert.deepEqual(blocked, [], 'the CSP blocked nothing on the pay pages');
    assert.equal((await service.store.transactions.find(merchant.id, link.request.sales_id))?.status, 'completed');
    await context.close();
  });
});
