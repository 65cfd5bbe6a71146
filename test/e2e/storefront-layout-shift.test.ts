import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/chromium.ts';
import { startDemo, type DemoServers } from './demo-servers.ts';

/**
 * The demo storefront does not move under the shopper's eyes: its Cumulative Layout Shift, from the first paint until
 * the widgets have rendered and the page has settled, stays at most 0.01 (Google's "good" is 0.1), at 1280 and 360 px.
 * Measured in Chromium with the layout-shift entries as CLS counts them (none right after the user's input).
 */
let demo: DemoServers;
let browser: Browser;

before(async () => {
  [demo, browser] = await Promise.all([startDemo(), launchChromium()]);
});
after(async () => {
  await browser?.close();
  await demo?.stop();
});

describe('the demo storefront’s layout shift', { timeout: 120_000 }, () => {
  for (const width of [1280, 360]) {
    test(`CLS ≤ 0.01 at ${width} px while the page, its header and its widgets load`, async (t) => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      page.setDefaultTimeout(30_000);
      try {
        await page.addInitScript(() => {
          const shifts: { value: number; sources: string[] }[] = ((window as unknown as { shifts: unknown }).shifts =
            []);
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as unknown as {
              value: number;
              hadRecentInput: boolean;
              sources: { node?: Node }[];
            }[]) {
              if (!entry.hadRecentInput)
                shifts.push({
                  value: entry.value,
                  sources: entry.sources.map(
                    (source) =>
                      (source.node as Element | undefined)?.outerHTML?.slice(0, 60) ?? String(source.node?.nodeName),
                  ),
                });
            }
          }).observe({ type: 'layout-shift', buffered: true });
        });
        await page.goto(`${demo.demoUrl}/`);
        // Everything the page fills in: the service's links, the products' pay buttons, the request button, the cards.
        await page.getByRole('link', { name: 'API reference' }).waitFor();
        await page.locator('article.product pay-button').last().getByRole('button', { name: /pay/i }).waitFor();
        await page.locator('request-payment-button').getByRole('button').waitFor();
        await page.getByRole('heading', { name: 'Test cards' }).waitFor();
        // The merchant's settings arrive after the elements render (the button label): give them time to land.
        await page.waitForLoadState('networkidle');
        await page.evaluate(
          () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
        );
        const shifts = await page.evaluate(
          () => (window as unknown as { shifts: { value: number; sources: string[] }[] }).shifts,
        );
        const cls = shifts.reduce((sum, shift) => sum + shift.value, 0);
        t.diagnostic(`CLS ${cls.toFixed(4)} at ${width} px${shifts.length ? `: ${JSON.stringify(shifts)}` : ''}`);
        assert.ok(cls <= 0.01, `CLS ${cls.toFixed(4)}: ${JSON.stringify(shifts, null, 1)}`);
      } finally {
        await page.close();
      }
    });
  }
});
