import { headerHtml } from '../shared/chrome.ts';
import { productCardsHtml } from '../shared/products.ts';
import { testCardsHtml } from '../shared/test-cards.ts';

/**
 * What the demo pages used to fill in by script, written into their HTML by the demo's server: the header, the test
 * cards and the storefront's products. A page that fills its first screen by script moves under the reader's eyes
 * when the script runs (the storefront's layout shift was 0.98 on a phone; test/e2e/storefront-layout-shift.test.ts).
 */
export function staticChrome(html: string, path: string, serviceUrl: string): string {
  return html
    .replace('<header></header>', `<header>${headerHtml(path, serviceUrl)}</header>`)
    .replace(
      '<section aria-labelledby="test-cards-title" id="test-cards"></section>',
      `<section aria-labelledby="test-cards-title" id="test-cards">${testCardsHtml()}</section>`,
    )
    .replace(
      '<div class="products" id="products"></div>',
      `<div class="products" id="products">${productCardsHtml()}</div>`,
    );
}
