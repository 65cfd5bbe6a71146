/**
 * The sandbox dashboard in Chromium against the real service, with webhooks delivered to a loopback receiver: signed in
 * with the client's credentials, axe-clean light and dark at 360 and 1280 px, the copy buttons and a resend with the
 * keyboard alone. Screenshots in test-artifacts/portal/.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { assertAccessible, assertFitsWidth, launchChromium } from '../support/chromium.ts';
import { startService, type TestService } from '../support/service.ts';
import { Receiver } from '../support/receiver.ts';
import { validApplication } from '../support/fixtures.ts';
import { nextOrderId } from '../support/payments.ts';
import { waitUntil } from '../support/wait.ts';

const ARTIFACTS = 'test-artifacts/portal';

describe('sandbox dashboard in Chromium', () => {
  let service: TestService;
  let receiver: Receiver;
  let browser: Browser;
  let credentials: { username: string; password: string };
  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    service = await startService({ webhooks: { scheduleSeconds: [5, 60, 600], timeoutMs: 500 } });
    receiver = await new Receiver().start();
    browser = await launchChromium();
    credentials = { username: service.client.clientId, password: service.client.secretKey };
    assert.equal(
      (await service.api('POST', '/client/update-webhooks-url', { json: { webhook_url: receiver.url } })).status,
      200,
    );
    const onboarded = await service.api('POST', '/onboarding', {
      json: validApplication({ BusinessInfo: { business_name: 'Corner Bakery' } }),
    });
    await service.api('POST', '/approve-merchant', { json: { merchant_id: onboarded.body.data.merchant_id } });
    await service.api('POST', '/requests', {
      json: {
        merchant_key: onboarded.body.data.merchant_key,
        amount: '18.40',
        order_id: nextOrderId(),
        phone_number: '(415) 555-0199',
        email: 'pat@payer.example',
        name: 'Pat Payer',
        description: 'Sourdough and coffee',
      },
    });
    await receiver.waitFor((receipts) => receipts.length >= 3);
  });
  after(async () => {
    await browser?.close();
    await receiver?.stop();
    await service?.close();
  });

  test('signed in with the credentials, it is axe-clean light and dark at 360 and 1280 px', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [360, 1280]) {
        const context = await browser.newContext({
          bypassCSP: true,
          colorScheme,
          httpCredentials: credentials,
          viewport: { width, height: width === 360 ? 740 : 900 },
        });
        const page = await context.newPage();
        const opened = await page.goto(`${service.baseUrl}/portal/dashboard`);
        assert.equal(opened?.status(), 200);
        await page.waitForSelector('text=Corner Bakery');
        await page.waitForSelector('button.copy:not([hidden])');
        assert.match(String(await page.textContent('#events-title')), /Recent events/);
        assert.match(String(await page.locator('details summary').first().textContent()), /1 attempt, last HTTP 200/);
        if (colorScheme === 'light') await page.screenshot({ path: `${ARTIFACTS}/portal-dashboard-${width}.png` });
        await assertAccessible(page, `the dashboard (${colorScheme}, ${width} px)`);
        await page.locator('details summary').first().click();
        await assertAccessible(page, `the dashboard with an event's attempts open (${colorScheme}, ${width} px)`);
        await assertFitsWidth(page, `the dashboard (${width} px)`);
        await context.close();
      }
    }
  });

  test('keyboard only: a copy button copies the client id, and an event is resent', async () => {
    const context = await browser.newContext({ httpCredentials: credentials });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.baseUrl });
    const page = await context.newPage();
    await page.goto(`${service.baseUrl}/portal/dashboard`);
    const tabTo = async (selector: string) => {
      for (let presses = 0; presses < 60; presses++) {
        if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
        await page.keyboard.press('Tab');
      }
      assert.fail(`${selector} is not reached with Tab`);
    };
    await tabTo(`button[data-copy="${credentials.username}"]`);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('copy-status')?.textContent === 'client id copied.');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), credentials.username);

    const before = receiver.receipts.length;
    await tabTo('form[action$="/resend"] button');
    const eventId = await page.evaluate(
      () => /events\/([^/]+)\/resend/.exec(document.activeElement!.closest('form')!.getAttribute('action')!)![1]!,
    );
    await Promise.all([page.waitForURL(/\?resent=/), page.keyboard.press('Enter')]);
    assert.equal(await page.textContent('.notice[role=status]'), `Event ${eventId} will be sent again.`);
    await receiver.waitFor((receipts) => receipts.length > before);
    await waitUntil(async () => (await service.store.webhookEndpoints.attemptsFor(eventId)).length >= 2, {
      what: 'the second attempt recorded',
    });
    await page.goto(`${service.baseUrl}/portal/dashboard`);
    const row = page.locator('tr', { has: page.locator(`code:text-is("${eventId}")`) });
    assert.match(String(await row.locator('details summary').textContent()), /2 attempts, last HTTP 200/);
    await context.close();
  });

  test('the credentials page copies the secret key with its button', async () => {
    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.baseUrl });
    const page = await context.newPage();
    await page.goto(`${service.baseUrl}/portal`);
    await page.click('button:has-text("Create sandbox credentials")');
    await page.waitForSelector('h1:has-text("Your sandbox credentials")');
    const secret = await page.locator('dt:text-is("Secret key") + dd code').textContent();
    assert.match(String(secret), /^sk_/);
    await page.getByRole('button', { name: 'Copy secret key' }).click();
    await page.waitForFunction(() => document.getElementById('copy-status')?.textContent === 'secret key copied.');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
    await context.close();
  });
});
