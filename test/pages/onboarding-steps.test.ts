/**
 * The hosted onboarding form's steps in Chromium against the real service: resumed from its link after a reload, each
 * step's errors in the browser's language (all four over HTTP: onboarding-drafts.test.ts), keyboard only, axe-clean
 * light and dark, fitting 360 and 1280 px (screenshots in test-artifacts/onboarding/).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible, assertFitsWidth, launchChromium } from '../support/chromium.ts';
import { startService, type TestService } from '../support/service.ts';
import { validApplication } from '../support/fixtures.ts';
import { ANSWER_STEPS, formBody, newOnboardingLink } from '../support/onboarding.ts';
import type { OnboardingApplication } from '../../server/domain/onboarding.ts';
import { pageLocale } from '../../server/views/i18n/language.ts';

const ARTIFACTS = 'test-artifacts/onboarding';

const groupFields = (group: string, application: OnboardingApplication = validApplication()) =>
  Object.fromEntries(Object.entries(formBody(application)).filter(([key]) => key.startsWith(`${group}.`)));

/** Types a step's answers as a merchant would: a select's option chosen, a text typed over what is there. */
async function fillStep(page: Page, fields: Record<string, string>) {
  for (const [name, value] of Object.entries(fields)) {
    const control = page.locator(`[name="${name}"]`);
    if ((await control.evaluate((el) => el.tagName)) === 'SELECT') await control.selectOption(value);
    else await control.fill(value);
  }
}

async function continueTo(page: Page, step: string) {
  await Promise.all([page.waitForURL(new RegExp(`/${step}(\\?|$)`)), page.click('button[value=forward]')]);
}

const stepCount = (page: Page) => page.textContent('.step-count');

/** Moves the focus with Tab alone until `selector` has it; fails when it is not reached in `limit` presses. */
async function tabTo(page: Page, selector: string, limit = 80) {
  for (let presses = 0; presses < limit; presses++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`${selector} is not reached with Tab`);
}

describe('hosted onboarding steps in Chromium', () => {
  let service: TestService;
  let browser: Browser;
  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    service = await startService();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await service.close();
  });

  test('resumed after a reload, and in another browser from a refreshed link, the form lands on the saved step with the answers kept', async () => {
    const link = await newOnboardingLink(service, { business_name: 'Blue Bottle Cafe' });
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(link.url);
    assert.equal(await stepCount(page), 'Step 1 of 5');
    await fillStep(page, { ...groupFields('BusinessInfo'), 'BusinessInfo.dba': 'The Corner' });
    await continueTo(page, 'owner');
    await fillStep(page, groupFields('OwnerInfo'));
    await continueTo(page, 'bank');
    await page.fill('#BankingInfo-bank_name', 'Not saved yet');

    await page.reload();
    assert.equal(await stepCount(page), 'Step 3 of 5');
    assert.equal(await page.inputValue('#BankingInfo-bank_name'), '', 'a step is saved when it is left, not before');
    await page.goto(link.url);
    assert.equal(await stepCount(page), 'Step 3 of 5', 'the bare link opens at the saved step');
    await Promise.all([page.waitForURL(/\/business$/), page.click('nav a:has-text("Business")')]);
    assert.equal(await page.inputValue('#BusinessInfo-dba'), 'The Corner');
    assert.equal(await page.inputValue('#BusinessInfo-business_country'), 'US');
    assert.equal(await page.inputValue('#BusinessInfo-business_industry'), 'restaurant');
    await context.close();

    const elsewhere = await browser.newContext({ bypassCSP: true });
    const later = await elsewhere.newPage();
    // The link itself opens nothing in another browser; the partner's new link does, answers and all.
    assert.equal((await later.goto(link.url))?.status(), 403);
    assert.match(String(await later.textContent('h1')), /opened in another browser/);
    const refreshed = await service.api('POST', '/auth/onboarding-link', { json: { merchant_id: link.merchantId } });
    await later.goto(refreshed.body.data.onboarding_link);
    assert.equal(await stepCount(later), 'Step 3 of 5');
    await later.click('nav a:has-text("Owner")');
    await later.waitForURL(/\/owner$/);
    assert.equal(await later.inputValue('#OwnerInfo-first_name'), 'Jane');
    assert.equal(await later.inputValue('#OwnerInfo-ssn'), '', 'the SSN is never sent back');
    assert.match(String(await later.textContent('#OwnerInfo-ssn-hint')), /ending in 6789/);
    await elsewhere.close();
  });

  test("each step's errors are in the browser's language, first on the page, without a field path", async () => {
    const bad = validApplication({
      BusinessInfo: { ein: '12' },
      OwnerInfo: { date_of_birth: '2020-01-01' },
      BankingInfo: { routing_number: '123' },
      ProcessingInfo: { legal_b2c: '' },
    });
    // The browser's language picks the page's; every step's message in all four languages is checked over HTTP
    // (onboarding-drafts.test.ts), so one language other than English shows the browser's side.
    for (const [language, locale] of [['de', 'de-DE']] as const) {
      const { onboarding } = pageLocale(language, undefined).texts;
      const expected: Record<string, string> = {
        business: onboarding.problems.ein,
        owner: onboarding.problems.underage,
        bank: onboarding.problems.routingNumber,
        processing: onboarding.giveAll.split('{fields}')[0]!,
      };
      const context = await browser.newContext({ bypassCSP: true, locale });
      const page = await context.newPage();
      await page.goto((await newOnboardingLink(service)).url);
      assert.equal(await page.getAttribute('html', 'lang'), language);
      for (const [step, group] of ANSWER_STEPS) {
        await fillStep(page, groupFields(group, bad));
        await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'POST'),
          page.click('button[value=forward]'),
        ]);
        const summary = (await page.locator('.summary li').allTextContents()).join(' | ');
        assert.ok(summary.includes(expected[step]!), `${language} ${step}: ${summary}`);
        assert.doesNotMatch(summary, /Info\b|legal_|_number|\bein\b/, `${language} ${step}: no field path`);
        const invalid = await page.locator('[aria-invalid=true]').count();
        assert.ok(invalid >= 1, `${language} ${step}: the field is marked`);
        await fillStep(page, groupFields(group));
        await continueTo(page, ANSWER_STEPS[ANSWER_STEPS.findIndex(([s]) => s === step) + 1]?.[0] ?? 'review');
      }
      await context.close();
    }
  });

  test('keyboard only: every step filled, left and signed with the keyboard', async () => {
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto((await newOnboardingLink(service)).url);
    const application = validApplication();
    for (const [step, group] of ANSWER_STEPS) {
      const fields = groupFields(group, application);
      for (const [name, value] of Object.entries(fields)) {
        await tabTo(page, `[name="${name}"]`);
        if (await page.evaluate(() => document.activeElement?.tagName === 'SELECT')) {
          // A closed select takes the first letters of an option's words, as with a keyboard.
          const words = await page.evaluate(
            (v) => [...(document.activeElement as HTMLSelectElement).options].find((o) => o.value === v)?.text ?? '',
            value,
          );
          await page.keyboard.type(words);
          assert.equal(
            await page.evaluate(() => (document.activeElement as HTMLSelectElement).value),
            value,
            `${name} chosen by typing`,
          );
        } else if (await page.evaluate(() => (document.activeElement as HTMLInputElement).type === 'date')) {
          // Chromium's date field in en-US takes month, day and year as typed digits.
          const [year, month, day] = value.split('-');
          await page.keyboard.type(`${month}${day}${year}`);
          assert.equal(
            await page.evaluate(() => (document.activeElement as HTMLInputElement).value),
            value,
            `${name} typed`,
          );
        } else {
          await page.keyboard.type(value);
        }
      }
      await tabTo(page, 'button[value=forward]');
      const next = ANSWER_STEPS[ANSWER_STEPS.findIndex(([s]) => s === step) + 1]?.[0] ?? 'review';
      await Promise.all([page.waitForURL(new RegExp(`/${next}$`)), page.keyboard.press('Enter')]);
      assert.equal(
        await page.evaluate(() => document.activeElement === document.body),
        true,
        `${next} starts from the top`,
      );
    }
    await tabTo(page, '#agree');
    await page.keyboard.press('Space');
    await tabTo(page, '#signature_name');
    await page.keyboard.type('Jane Doe');
    await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.keyboard.press('Enter')]);
    await page.waitForSelector('h1:has-text("Thank you")');
    await assertAccessible(page, 'the thank-you page');
    await context.close();
  });

  // Colours do not change the layout, nor the width the contrast: light at 360 px and dark at 1280 px check both, in
  // half the time of all four.
  test('every step is axe-clean, light and dark, fits 360 and 1280 px, with and without errors', async () => {
    for (const [colorScheme, width] of [
      ['light', 360],
      ['dark', 1280],
    ] as const) {
      const context = await browser.newContext({
        bypassCSP: true,
        colorScheme,
        viewport: { width, height: width === 360 ? 740 : 900 },
      });
      const page = await context.newPage();
      const link = await newOnboardingLink(service, { business_name: 'Blue Bottle Cafe' });
      await page.goto(link.url);
      const shot = async (name: string) => {
        await page.screenshot({ path: `${ARTIFACTS}/onboarding-${name}-${width}.png` });
      };
      const what = (state: string) => `${state} (${colorScheme}, ${width} px)`;
      for (const [step, group] of ANSWER_STEPS) {
        await assertAccessible(page, what(step));
        await assertFitsWidth(page, what(step));
        await shot(step);
        // The processing step asks for nothing required: a lone percentage makes it wrong.
        if (step === 'processing') await page.fill('#ProcessingInfo-legal_b2b', '50');
        await page.click('button[value=forward]');
        await page.waitForSelector('.summary');
        // The errors' colours are one style on every step: dark checks them once, light on each step's fields.
        if (colorScheme === 'light' || step === 'business') await assertAccessible(page, what(`${step} with errors`));
        await assertFitsWidth(page, what(`${step} with errors`));
        if (step === 'business') await shot('business-errors');
        await fillStep(page, groupFields(group));
        await page.click('button[value=forward]');
        await page.waitForURL(/\/(owner|bank|processing|review)$/);
      }
      await assertAccessible(page, what('review'));
      await assertFitsWidth(page, what('review'));
      await shot('review');
      await page.click('button:has-text("Sign and submit")');
      await page.waitForSelector('.summary');
      await assertAccessible(page, what('review with errors'));
      await context.close();
    }
  });
});
