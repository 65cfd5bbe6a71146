import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Frame, FrameLocator, Page } from 'playwright-core';
import { assertAccessible, assertFitsWidth, launchChromium } from '../support/chromium.ts';
import { startDemo, type DemoServers } from './demo-servers.ts';

/**
 * A shopper's and a merchant's journeys through `npm start`'s demo in Debian's Chromium. Each journey leaves
 * screenshots in test-artifacts/e2e/ (the README shows some of them).
 */
const ARTIFACTS = 'test-artifacts/e2e';
const CARD = { approve: '4242424242424242', challenge: '4000000000003220', decline: '4000000000000002' };
// Generous: in `npm test` this suite shares two cores with another suite.
const TIMEOUT = 30_000;

let demo: DemoServers;
let browser: Browser;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [demo, browser] = await Promise.all([startDemo(), launchChromium()]);
});
after(async () => {
  await browser?.close();
  await demo?.stop();
});

/** A fresh page for one journey; on failure its state is kept as `<name>-failed.png`. */
async function journey(name: string, run: (page: Page) => Promise<void>): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(TIMEOUT);
  try {
    await run(page);
  } catch (error) {
    await page.screenshot({ path: `${ARTIFACTS}/${name}-failed.png`, fullPage: true }).catch(() => undefined);
    throw new Error(`${(error as Error).message}\n--- npm start said:\n${demo.output().slice(-2000)}`, {
      cause: error,
    });
  } finally {
    await page.close();
  }
}

const shot = (page: Page, name: string, fullPage = false) =>
  page.screenshot({ path: `${ARTIFACTS}/${name}.png`, fullPage });

async function fillCard(form: FrameLocator | Frame | Page, number: string): Promise<void> {
  await form.getByLabel('Card number').fill(number);
  await form.getByLabel('Expiry date (MM / YY)').fill(`12 / ${String((new Date().getUTCFullYear() + 3) % 100)}`);
  await form.getByLabel('Security code (CVC)').fill('123');
}

/** Opens the storefront, clicks the product's pay button and returns the hosted pay page inside the dialog. */
async function openPayDialog(page: Page, product: string, storefront = '/'): Promise<FrameLocator> {
  await page.goto(`${demo.demoUrl}${storefront}`);
  const card = page.locator('article.product', { has: page.getByRole('heading', { name: product }) });
  await card.locator('pay-button').getByRole('button', { name: /pay/i }).click();
  await page.getByRole('dialog').waitFor();
  const frame = page.frameLocator('pay-button iframe');
  await frame.getByLabel('Card number').waitFor();
  return frame;
}

const outcome = (page: Page, text: string | RegExp) => page.locator('#outcomes').getByText(text).waitFor();

/** Each demo page, and what shows that it finished loading. */
const PAGES = [
  ['/', 'pay-button'],
  ['/checkout.html', 'pay-button'],
  ['/react.html', 'pay-button'],
  ['/vue.html', 'pay-button'],
  ['/back-office.html', '#holds table, #holds p'],
  ['/onboarding.html', '#merchants table'],
] as const;

describe('end-to-end journeys through the demo', { timeout: 240_000 }, () => {
  test('a shopper pays with a test card in the pay dialog', () =>
    journey('card-payment', async (page) => {
      const frame = await openPayDialog(page, 'Croissant');
      await fillCard(frame, CARD.approve);
      await shot(page, 'card-payment-dialog');
      await frame.getByRole('button', { name: /pay \$4\.50 by card/i }).click();
      await outcome(page, /Paid \$4\.50: transaction txn_/);
      await shot(page, 'card-payment-success');
    }));

  test('a shopper passes a 3-D Secure challenge', () =>
    journey('three-d-secure', async (page) => {
      const frame = await openPayDialog(page, 'Birthday cake');
      await fillCard(frame, CARD.challenge);
      await frame.getByRole('button', { name: /pay \$32\.00 by card/i }).click();
      await frame.getByRole('button', { name: 'Pass' }).waitFor();
      await shot(page, 'three-d-secure-challenge');
      await frame.getByRole('button', { name: 'Pass' }).click();
      await outcome(page, /Paid \$32\.00/);
    }));

  test('the server-rendered storefront shows its buttons before scripts, hydrates them and takes a payment', () =>
    journey('ssr-payment', async (page) => {
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => ['error', 'warning'].includes(message.type()) && problems.push(message.text()));
      const markup = await (await fetch(`${demo.demoUrl}/checkout.html`)).text();
      assert.match(
        markup,
        /<pay-button[^>]*><template shadowroot="open" shadowrootmode="open">/,
        'declarative shadow DOM from paykit/ssr',
      );
      assert.match(markup, /Pay \$4\.50/, 'the label and the amount are in the HTML');
      const frame = await openPayDialog(page, 'Croissant', '/checkout.html');
      await fillCard(frame, CARD.approve);
      await frame.getByRole('button', { name: /pay \$4\.50 by card/i }).click();
      await outcome(page, /Paid \$4\.50: transaction txn_/);
      await shot(page, 'ssr-storefront');
      assert.deepEqual(
        problems.filter((text) => /hydrat|Paykit|Lit/i.test(text)),
        [],
        'hydrated without an error',
      );
    }));

  for (const [framework, storefront] of [
    ['React', '/react.html'],
    ['Vue', '/vue.html'],
  ] as const) {
    test(`the ${framework} storefront takes a payment through its adapter`, () =>
      journey(`${framework.toLowerCase()}-payment`, async (page) => {
        const frame = await openPayDialog(page, 'Sourdough loaf', storefront);
        await fillCard(frame, CARD.approve);
        await frame.getByRole('button', { name: /pay \$9\.00 by card/i }).click();
        await outcome(page, /Paid \$9\.00: transaction txn_/);
        await shot(page, `${framework.toLowerCase()}-storefront`);
      }));
  }

  test('a declined card shows why, and nothing is charged', () =>
    journey('declined', async (page) => {
      const frame = await openPayDialog(page, 'Croissant');
      await fillCard(frame, CARD.decline);
      await frame.getByRole('button', { name: /pay \$4\.50 by card/i }).click();
      await frame.getByRole('alert').getByText('Your card was declined.').waitFor();
      await outcome(page, /Payment failed: .*declined/i);
      await shot(page, 'declined');
    }));

  test('a payment request reaches the sandbox messages and is paid from its link', () =>
    journey('payment-request', async (page) => {
      await page.goto(`${demo.demoUrl}/`);
      // The page's module fills in a sample number when it runs: type ours after that, or it is overwritten.
      await page.waitForFunction(() => (document.querySelector('#phone') as HTMLInputElement | null)?.value !== '');
      await page.getByLabel("Customer's phone").fill('+14155550177');
      await page.locator('request-payment-button').getByRole('button').click();
      await outcome(page, /Text sent with the pay link/);
      await shot(page, 'payment-request-sent');

      await page.goto(`${demo.demoUrl}/back-office.html`);
      const message = page.locator('#message-list li', { hasText: '+14155550177' });
      await message.waitFor();
      const link = await message.getByRole('link', { name: 'Open the pay link' }).getAttribute('href');
      assert.ok(link, 'the message carries its pay link');
      await page.goto(link);
      await fillCard(page, CARD.approve);
      await page.getByRole('button', { name: /pay \$12\.00 by card/i }).click();
      await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
      await shot(page, 'payment-request-paid');
    }));

  test('the back office’s console finds the payment, refunds part of it and sees the verified payment.refund webhook', () =>
    journey('refund', async (page) => {
      await page.goto(`${demo.demoUrl}/back-office.html`);
      const table = page.locator('transactions-table');
      await table.getByRole('cell', { name: '$32.00' }).first().waitFor();
      // Found by its amount, opened by its row's button, refunded in part from its details.
      await table.getByRole('searchbox', { name: 'Search' }).fill('32.00');
      await table.getByRole('button', { name: 'Apply' }).click();
      await page.waitForURL(/\?q=32\.00$/);
      const row = table.locator('tr[part="row"]', { hasText: '$32.00' }).first();
      await row.getByRole('button').click();
      const details = table.locator('tr[part="details"]');
      await details.getByRole('textbox', { name: /Amount to refund/ }).fill('5.00');
      await details.getByRole('button', { name: 'Refund', exact: true }).click();
      // It asks first, saying what will happen; yes is the action's own word.
      await details
        .locator('[part="confirm"]')
        .getByText(/Refund \$5\.00 of \$32\.00/)
        .waitFor();
      await details.locator('[part="confirm-button"]').click();
      await details.getByText('Done: Refund.').waitFor();
      await row.getByRole('cell', { name: 'Partly refunded' }).waitFor();
      await page
        .locator('#action-status')
        .getByText(/^Refunded txn_/)
        .waitFor();
      const webhook = page.locator('#webhooks li', { hasText: 'payment.refund' });
      await webhook.getByText('signature verified').waitFor();
      await shot(page, 'back-office-refund', true);
    }));

  test('a preauthorization is adjusted and captured', () =>
    journey('preauth', async (page) => {
      // The page's configuration is held back until the hold is placed: the form is wired (its button enabled, which
      // the click waits for) before anything else has loaded, and never submits natively.
      let releaseConfig!: () => void;
      const configHeld = new Promise<void>((resolve) => (releaseConfig = resolve));
      await page.route('**/demo-api/config', async (route) => {
        await configHeld;
        await route.continue();
      });
      await page.goto(`${demo.demoUrl}/back-office.html`, { waitUntil: 'domcontentloaded' });
      await page.getByLabel('Amount to hold').fill('20.00');
      await page.getByRole('button', { name: 'Place a test hold' }).click();
      await page
        .locator('#action-status')
        .getByText(/Hold of \$20\.00 placed/)
        .waitFor();
      releaseConfig();
      const hold = page.locator('#holds tr', { hasText: 'authorized' }).first();
      await hold.waitFor();
      await hold.getByRole('textbox').fill('25.00');
      await hold.getByRole('button', { name: 'Adjust' }).click();
      await page
        .locator('#action-status')
        .getByText(/to \$25\.00: done\./)
        .waitFor();
      // The list is drawn again after "done": capture from the new row, not from one about to be replaced.
      const adjusted = page.locator('#holds tr', { hasText: 'authorized' }).filter({ hasText: '$25.00' }).first();
      await adjusted.waitFor();
      await adjusted.getByRole('button', { name: 'Capture' }).click();
      await page.locator('#holds tr', { hasText: 'captured' }).first().waitFor();
      await page.locator('#webhooks li', { hasText: 'preauth.charge' }).getByText('signature verified').waitFor();
      await page.locator('#webhooks li', { hasText: 'preauth.increment' }).first().waitFor();
      await shot(page, 'back-office-preauth', true);
    }));

  test('the back office moves the sandbox clock until the sales are paid out, and sees the balance, the payout and its webhook', () =>
    journey('payout', async (page) => {
      await page.goto(`${demo.demoUrl}/back-office.html`);
      await page
        .locator('#balance')
        .getByText(/^Available \$[\d,.]+ · pending \$[\d,.]+$/)
        .waitFor();
      const payout = page.locator('#payouts tbody tr').first();
      // A day at a time: card sales are available two business days after they settle, and paid out on a business day.
      for (let day = 0; day < 10 && !(await payout.isVisible()); day++) {
        await page.getByRole('button', { name: 'Move the clock forward' }).click();
        await page
          .locator('#action-status')
          .getByText(/The sandbox's clock reads/)
          .waitFor();
        await page.getByRole('button', { name: 'Move the clock forward' }).and(page.locator(':enabled')).waitFor();
      }
      await payout.waitFor();
      assert.match(await payout.innerText(), /\$[\d,.]+/);
      await page.locator('#webhooks li', { hasText: 'payout.created' }).getByText('signature verified').waitFor();
      // The console shows it too: the session grants payouts.
      const table = page.locator('transactions-table');
      await table.getByRole('button', { name: 'Balance and payouts' }).click();
      await table.locator('[part="payout-row"]').first().waitFor();
      await shot(page, 'back-office-payout', true);
    }));

  test('the back office opens a test dispute and answers it in the console: evidence saved, submitted after its question', () =>
    journey('dispute', async (page) => {
      await page.goto(`${demo.demoUrl}/back-office.html`);
      await page.getByRole('button', { name: 'Open a test dispute' }).and(page.locator(':enabled')).click();
      await page
        .locator('#action-status')
        .getByText(/^Dispute dp_\S+ opened on txn_/)
        .waitFor();
      const table = page.locator('transactions-table');
      await table.getByRole('combobox', { name: 'Status' }).selectOption('disputed');
      await table.getByRole('button', { name: 'Apply' }).click();
      const row = table.locator('tr[part="row"]', { hasText: 'Disputed' }).first();
      await row.getByRole('button').click();
      const panel = table.locator('[part="dispute"]');
      await panel.getByText('The card holder says they did not receive what they paid for.').waitFor();
      await panel.getByRole('textbox', { name: 'Your explanation' }).fill('Delivered and signed for: winning_evidence');
      await panel.getByRole('button', { name: 'Save evidence' }).click();
      await panel.getByText('Evidence saved.').waitFor();
      await panel.getByRole('button', { name: 'Submit evidence…' }).click();
      await panel
        .locator('[part="dispute-confirm"]')
        .getByText(/Nothing can be added or changed afterwards/)
        .waitFor();
      await panel.locator('[part="confirm-button"]').click();
      await page
        .locator('#action-status')
        .getByText(/^Evidence submitted for dispute dp_\S+ \(under_review\)\.$/)
        .waitFor();
      await page.locator('#webhooks li', { hasText: 'dispute.updated' }).first().waitFor();
      await shot(page, 'back-office-dispute', true);
    }));

  test('a merchant is onboarded, then approved, and the page follows its status', () =>
    journey('onboarding', async (page) => {
      await page.goto(`${demo.demoUrl}/onboarding.html`);
      await page.getByLabel('Business name').last().fill('Night Owl Bakery');
      await page.getByRole('button', { name: 'Onboard', exact: true }).click();
      const merchant = page.locator('#merchants tr', { hasText: 'Night Owl Bakery' });
      await merchant.getByRole('button', { name: 'Approve (sandbox)' }).click();
      await merchant.getByText('approved').waitFor();
      await page.locator('#webhooks li', { hasText: 'merchant.approval' }).first().waitFor();
      await shot(page, 'onboarding', true);
    }));

  test('every demo page passes axe and fits a phone', () =>
    journey('pages', async (page) => {
      for (const [path, ready] of PAGES) {
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.goto(`${demo.demoUrl}${path}`);
        await page.locator(ready).first().waitFor();
        await assertAccessible(page, path);
        await page.setViewportSize({ width: 375, height: 800 });
        await assertFitsWidth(page, path);
      }
    }));
});
