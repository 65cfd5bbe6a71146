import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ViteDevServer } from 'vite';
import { PRODUCTS } from '../shared/products.ts';

const TEMPLATE = fileURLToPath(new URL('../checkout.html', import.meta.url));
type ServerRenderer = typeof import('paykit/ssr');

/**
 * GET /checkout.html: the storefront rendered on the demo's server, as a merchant's Node server would with
 * `paykit/ssr`. The renderer is loaded through Vite, so its templates are minified by the same plugin as the
 * script tag's: hydration needs the very template strings that rendered the markup.
 */
export async function checkoutPage(
  server: ViteDevServer,
  url: string,
  script: { serviceUrl: string; publicKey: string },
): Promise<string> {
  // `paykit/ssr` as a merchant's Vite SSR server imports it; the demo's Vite config points it at the sources.
  const { html, renderToString } = (await server.ssrLoadModule('paykit/ssr')) as ServerRenderer;
  const products = await renderToString(
    html`${PRODUCTS.map(
      (product) => html`<article class="product">
      <h3>${product.name}</h3>
      <p>${product.blurb}</p>
      <p class="price">$${product.price}</p>
      <pay-button amount=${product.price} description=${product.name}></pay-button>
    </article>`,
    )}`,
  );
  const scriptTag = `<script type="module" src="${script.serviceUrl}/paykit.js" data-public-key="${script.publicKey}"></script>`;
  const page = await server.transformIndexHtml(url, await readFile(TEMPLATE, 'utf8'));
  return page.replace('<!--paykit:script-tag-->', scriptTag).replace('<!--paykit:products-->', products);
}
