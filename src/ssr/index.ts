/**
 * `paykit/ssr`: the Paykit elements rendered to HTML on a server, with their shadow DOM as declarative shadow DOM,
 * through Lit's server renderer (`@lit-labs/ssr`). A browser shows the result before any script runs (the pay
 * button with its label and amount); once the script tag or the package defines the elements, they hydrate: they
 * keep that markup, attach their listeners and start their work (settings, the transactions listing) there. No
 * network call starts on the server: the elements' tasks run in the browser only.
 *
 *     import { html, renderToString } from 'paykit/ssr';
 *     const markup = await renderToString(html`<pay-button amount=${price} order-id=${orderId}></pay-button>`);
 *
 * Give elements their attributes only (what the browser will see too), and `locale` when the page's language is
 * not en-US: the server cannot read the page's `lang`. See docs/widgets.md for Node, Next.js and Vite.
 */
import { render, type RenderInfo } from '@lit-labs/ssr';
import { collectResult, type RenderResult } from '@lit-labs/ssr/lib/render-result.js';
import { RenderResultReadable } from '@lit-labs/ssr/lib/render-result-readable.js';
import type { TemplateResult } from 'lit';
// Each element module defines its tag, here in Lit's server-side registry, which is where the renderer looks.
import '../elements/pay-button/pay-button.ts';
import '../elements/request-payment-button/request-payment-button.ts';
import '../elements/transactions-table/transactions-table.ts';

/** Lit's `html` tag, from the same copy of Lit the renderer uses. */
export { html } from 'lit';

/** The template's HTML, Paykit elements included with their declarative shadow roots. */
export function renderToString(template: TemplateResult, options?: Partial<RenderInfo>): Promise<string> {
  return collectResult(render(template, options) as RenderResult);
}

/** The same HTML as a Node readable stream, for a server that streams its pages. */
export function renderToStream(template: TemplateResult, options?: Partial<RenderInfo>): RenderResultReadable {
  return new RenderResultReadable(render(template, options));
}
