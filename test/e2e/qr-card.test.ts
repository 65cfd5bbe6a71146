import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertAccessible, launchChromium } from '../support/chromium.ts';
import { startDemo, type DemoServers } from './demo-servers.ts';

/**
 * The demo storefront's QR card keeps the QR code's place from the start: when the code arrives (after the click),
 * neither the card nor its grid row grows. Measured in Chromium, at 1280 and 360 px: the heights with the code laid
 * in, and the same page with the code taken out of the layout, are the same, and the code sits in its reserved space;
 * on the script-tag storefront and the React and Vue ones.
 */
const ARTIFACTS = 'test-artifacts/e2e';

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

describe("the storefront's QR card", { timeout: 120_000 }, () => {
  const cases = [
    ['/', 1280],
    ['/', 360],
    ['/react.html', 1280],
    ['/vue.html', 1280],
  ] as const;
  for (const [storefront, width] of cases) {
    test(`${storefront} reserves the QR code's space at ${width} px: the row does not grow when the code arrives`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      page.setDefaultTimeout(30_000);
      try {
        await page.goto(`${demo.demoUrl}${storefront}`);
        const card = page.locator('article.product', { has: page.getByRole('heading', { name: 'Sourdough loaf' }) });
        const pay = card.locator('pay-button').getByRole('button', { name: /pay/i });
        await pay.waitFor();

        await pay.click();
        await page.getByRole('dialog').waitFor();
        const image = card.locator('img[part=qr-image]');
        await image.waitFor();
        await image.evaluate((img: HTMLImageElement) => img.decode());
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').waitFor({ state: 'hidden' });

        const heights = await image.evaluate((img) => {
          const cardElement =
            img.getRootNode() instanceof ShadowRoot
              ? ((img.getRootNode() as ShadowRoot).host.closest('article') as Element)
              : img.closest('article')!;
          const figure = img.closest('figure') as HTMLElement;
          const grid = cardElement.closest('.products')!;
          // No named function in here: the test's transpiler would wrap it in a helper the page does not have.
          const withCode = {
            card: cardElement.getBoundingClientRect().height,
            grid: grid.getBoundingClientRect().height,
          };
          figure.style.display = 'none';
          const withoutCode = {
            card: cardElement.getBoundingClientRect().height,
            grid: grid.getBoundingClientRect().height,
          };
          figure.style.display = '';
          return { withCode, withoutCode };
        });
        assert.deepEqual(heights.withCode, heights.withoutCode, 'the code adds no height to its card or the grid');

        const reserved = await card.locator('.qr-space').boundingBox();
        assert.ok(reserved && reserved.height >= 188, `the space is kept (${reserved?.height} px)`);
        const code = await image.boundingBox();
        const space = await card.locator('.qr-space').boundingBox();
        assert.ok(code && space, 'the code and its space are on the page');
        assert.ok(
          code.y >= space.y - 0.5 && code.y + code.height <= space.y + space.height + 0.5,
          `the code lies in its space (${JSON.stringify({ code, space })})`,
        );
        await page.screenshot({
          path: `${ARTIFACTS}/storefront-qr-${storefront.replace(/\W/g, '') || 'script-tag'}-${width}.png`,
        });
        await assertAccessible(page, `the storefront with the QR code (${width} px)`);
      } finally {
        await page.close();
      }
    });
  }
});
