/**
 * The hosted pay page's card form as a shopper meets it, in Chromium with the page's own CSP enforced: the number
 * grouped as it is typed with its brand, one MM / YY field that autofill's MM/YYYY fits into, Luhn, expiry and
 * security code checked on the field before anything is sent, no sideways scroll on a 360 px phone, every state
 * axe-clean; and the same page paying with JavaScript off. Screenshots at 360 and 1280 px go to test-artifacts/pages/
 * (docs/images/pay-page-*.png are copies).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { assertAccessible, assertFitsWidth, launchChromium } from '../support/chromium.ts';
import type { MerchantAccount } from '../../server/store/merchants.ts';
import { startService, type TestService } from '../support/service.ts';
import { APPROVE, approvedMerchant, newPayLink } from './pay-helpers.ts';

const ARTIFACTS = 'test-artifacts/pages';
const nextYear = String(new Date().getUTCFullYear() + 1).slice(2);

/** Types as a person does, key by key, so the page's input handling runs as it does for them. */
const type = (page: Page, selector: string, text: string) => page.locator(selector).pressSequentially(text);

/** CSP refusals on a page, as the browser reports them. */
async function watchViolations(context: BrowserContext): Promise<() => Promise<string[]>> {
  await context.addInitScript(() => {
    const seen: string[] = ((window as unknown as { violations: string[] }).violations = []);
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.effectiveDirective} ${event.blockedURI}`),
    );
  });
  return async () => {
    const pages = context.pages();
    return (
      await Promise.all(
        pages.map((page) => page.evaluate(() => (window as unknown as { violations: string[] }).violations)),
      )
    ).flat();
  };
}

describe('the hosted pay page’s card form in Chromium', () => {
  let service: TestService;
  let browser: Browser;
  let merchant: MerchantAccount;
  before(async () => {
    service = await startService();
    merchant = await approvedMerchant(service, 'Corner Bakery');
    browser = await launchChromium();
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await service.close();
  });

  test('groups the number with its brand, takes the expiry as MM / YY, and checks every field before sending', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const violations = await watchViolations(context);
    const page = await context.newPage();
    const posts: string[] = [];
    page.on('request', (request) => request.method() === 'POST' && posts.push(request.url()));
    const link = await newPayLink(service, merchant, { amount: '18.40', description: 'Sourdough and coffee' });
    await page.goto(`${service.baseUrl}${link.path}`);

    await type(page, '#card-number', '424242424242424');
    assert.equal(await page.inputValue('#card-number'), '4242 4242 4242 424');
    assert.equal(await page.textContent('#card-brand'), 'Visa');
    assert.equal(await page.locator('#card-number-error').count(), 0, 'no message while the number is being typed');
    await type(page, '#card-number', '1');
    assert.equal(
      await page.textContent('#card-number-error'),
      'The card number is not valid.',
      'checked once complete (Luhn)',
    );
    assert.equal(await page.getAttribute('#card-number', 'aria-invalid'), 'true');
    assert.match(
      String(await page.getAttribute('#card-number', 'aria-describedby')),
      /^card-number-error card-number-hint$/,
    );

    await page.fill('#card-number', '');
    await type(page, '#card-number', '378282246310005');
    assert.equal(await page.inputValue('#card-number'), '3782 822463 10005', 'American Express groups 4-6-5');
    assert.equal(await page.textContent('#card-brand'), 'Amex');
    assert.equal(await page.locator('#card-number-error').count(), 0, 'the message goes once the number is right');
    assert.equal(await page.getAttribute('#card-number', 'aria-invalid'), null);

    await type(page, '#card-exp', `12${nextYear}`);
    assert.equal(await page.inputValue('#card-exp'), `12 / ${nextYear}`);
    await page.fill('#card-exp', '');
    await type(page, '#card-exp', '0120');
    assert.equal(await page.textContent('#card-exp-error'), 'The card has expired.', 'checked once four digits are in');
    await type(page, '#card-cvc', '123');
    await page.click('#card-form button[type=submit]');
    assert.equal(await page.textContent('#card-cvc-error'), 'The security code must be 4 digits.', 'Amex has four');
    assert.equal(
      await page.evaluate(() => document.activeElement?.id),
      'card-exp',
      'the first field to fix has the focus',
    );
    assert.deepEqual(posts, [], 'nothing is sent while a field is wrong');
    await page.screenshot({ path: `${ARTIFACTS}/pay-page-360-errors.png`, fullPage: true });
    await assertFitsWidth(page, 'the card form with its messages');

    // Autofill puts MM/YYYY into a cc-exp field: it becomes MM / YY.
    await page.fill('#card-exp', `12/20${nextYear}`);
    assert.equal(await page.inputValue('#card-exp'), `12 / ${nextYear}`);
    await page.fill('#card-number', '');
    await type(page, '#card-number', APPROVE);
    await page.fill('#card-cvc', '');
    await type(page, '#card-cvc', '123');
    await Promise.all([page.waitForNavigation(), page.click('#card-form button[type=submit]')]);
    assert.equal(await page.textContent('h1'), 'Payment successful');
    assert.deepEqual(await violations(), [], 'the page’s own CSP blocked nothing');
    await context.close();
  });

  test('every state is axe-clean, light and dark, at 360 px; screenshots at 360 and 1280 px', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ bypassCSP: true, colorScheme, viewport: { width: 360, height: 740 } });
      const page = await context.newPage();
      const link = await newPayLink(service, merchant, { amount: '18.40', description: 'Sourdough and coffee' });
      await page.goto(`${service.baseUrl}${link.path}`);
      if (colorScheme === 'light') await page.screenshot({ path: `${ARTIFACTS}/pay-page-360.png`, fullPage: true });
      await type(page, '#card-number', '4000000000000003');
      await type(page, '#card-exp', '13');
      await page.click('#card-form button[type=submit]');
      await page.waitForSelector('#card-number-error');
      await assertAccessible(page, `the card form with its own messages (${colorScheme})`);
      await assertFitsWidth(page, 'the card form with its own messages');
      await page.fill('#card-number', '');
      await type(page, '#card-number', APPROVE);
      await assertAccessible(page, `the card form with a brand shown (${colorScheme})`);
      await context.close();
    }
    // In another language: the browser's Accept-Language chooses it.
    const french = await browser.newContext({
      bypassCSP: true,
      locale: 'fr-FR',
      viewport: { width: 360, height: 740 },
    });
    const frenchPage = await french.newPage();
    await frenchPage.goto(`${service.baseUrl}${(await newPayLink(service, merchant, { amount: '18.40' })).path}`);
    assert.equal(await frenchPage.getAttribute('html', 'lang'), 'fr');
    await type(frenchPage, '#card-number', '4000000000000003');
    await frenchPage.click('#card-form button[type=submit]');
    assert.equal(await frenchPage.textContent('#card-number-error'), 'Le numéro de carte n’est pas valide.');
    await assertAccessible(frenchPage, 'the card form in French, with its messages');
    await assertFitsWidth(frenchPage, 'the card form in French');
    await french.close();

    const wide = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await wide.newPage();
    await page.goto(
      `${service.baseUrl}${(await newPayLink(service, merchant, { amount: '18.40', description: 'Sourdough and coffee' })).path}`,
    );
    await page.screenshot({ path: `${ARTIFACTS}/pay-page-1280.png`, fullPage: true });
    await assertFitsWidth(page, 'the pay page at 1280 px');
    await wide.close();
  });

  test('pays with JavaScript off: the service parses the one expiry field and checks everything', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    const link = await newPayLink(service, merchant, { amount: '7.00' });
    await page.goto(`${service.baseUrl}${link.path}`);
    await page.fill('#card-number', '4242 4242 4242 4242');
    await page.fill('#card-exp', `12/${nextYear}`);
    await page.fill('#card-cvc', '12');
    await Promise.all([page.waitForNavigation(), page.click('#card-form button[type=submit]')]);
    assert.equal(
      await page.textContent('#card-cvc-error'),
      'The security code must be 3 digits.',
      'the service says what the script would have',
    );
    assert.equal(await page.inputValue('#card-exp'), `12/${nextYear}`, 'the expiry is kept');
    await page.fill('#card-number', '4242 4242 4242 4242');
    await page.fill('#card-cvc', '123');
    await Promise.all([page.waitForNavigation(), page.click('#card-form button[type=submit]')]);
    assert.equal(await page.textContent('h1'), 'Payment successful');
    assert.equal((await service.store.transactions.find(merchant.id, link.request.sales_id))?.status, 'completed');
    await context.close();
  });
});
