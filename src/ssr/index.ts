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
import type { TemplateResult } from 'lit-element';
// Each element's entry defines its tag, here in Lit's server-side registry, which is where the renderer looks.
import '../pay-button.ts';
import '../request-payment-button.ts';
import '../transactions-table.ts';
import { registerTexts } from '../shared/i18n.ts';
import de from '../locales/de.ts';
import es from '../locales/es.ts';
import fr from '../locales/fr.ts';

// A render cannot wait for a language to load, so a server has every language at once (they are small).
registerTexts('de', de);
registerTexts('es', es);
registerTexts('fr', fr);

/** Lit's `html` tag, from the same copy of Lit the renderer uses. */
export { html } from 'lit-element';

/** The template's HTML, Paykit elements included with their declarative shadow roots. */
export function renderToString(template: TemplateResult, options?: Partial<RenderInfo>): Promise<string> {
  return collectResult(render(template, options) as RenderResult);
}

/** The same HTML as a Node readable stream, for a server that streams its pages. */
export function renderToStream(template: TemplateResult, options?: Partial<RenderInfo>): RenderResultReadable {
  return new RenderResultReadable(render(template, options));
}
