import { readFileSync, writeFileSync } from 'node:fs';

/**
 * `npm run docs:widgets`: writes docs/widgets.md from custom-elements.json (npm run manifest), so the widget
 * reference is the elements' own JSDoc and cannot drift from the code.
 */
interface Named {
  name: string;
  description?: string;
  type?: { text: string };
  default?: string;
  fieldName?: string;
}
interface Declaration {
  kind: string;
  name: string;
  tagName?: string;
  description?: string;
  attributes?: Named[];
  events?: Named[];
  cssParts?: Named[];
  cssProperties?: Named[];
  cssStates?: Named[];
  members?: (Named & { kind: string; privacy?: string; static?: boolean; readonly?: boolean })[];
}

const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8')) as { modules: { path: string; declarations?: Declaration[] }[] };
const cell = (text = '') => text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');
const table = (headers: string[], rows: string[][]) =>
  rows.length === 0 ? '' : `| ${headers.join(' | ')} |\n|${headers.map(() => '---').join('|')}|\n${rows.map((r) => `| ${r.map(cell).join(' | ')} |`).join('\n')}\n\n`;

let out = `# Widgets

Generated from the elements' JSDoc by \`npm run docs:widgets\` (do not edit by hand; the prose is in
scripts/widget-docs.ts). Load them with the script tag (\`<script type="module" src="{service}/paykit.js"
data-public-key="pk_…">\`) or \`import 'paykit'\` and \`configure({ publicKey, baseUrl })\`; every element also
takes \`public-key\` and \`base-url\`, which win. The HTTP calls behind them are in [widget-api.md](widget-api.md).

## The script tag

\`/paykit.js\` is a small loader (about 0.7 KB brotli). It takes the public key from its own \`data-public-key\` and
the service from its own origin, then defines each element the first time one appears in the document, importing
that element's module (and, in parallel, everything the module imports) from \`{service}/paykit/\`. Those files are
named by a hash of their content and cached for a year; the loader itself is cached for a minute and then
revalidated (a 304 when nothing changed). Every file comes compressed (brotli or gzip).

- **Shadow roots.** The loader watches the document, not the shadow roots of your own components. Tell it about one:

  \`\`\`js
  import { observe } from 'https://pay.example.com/paykit.js'; // the same URL as the script tag: the same module
  observe(this.shadowRoot); // defines the Paykit elements in it now, and those added to it later
  \`\`\`
- **Preloading.** Put the script tag in \`<head>\` so it starts early; it asks for an element's files as soon as it
  runs. A page that knows which elements it shows can start them earlier still, beside the loader: \`GET
  {service}/paykit.json\` names each element's files (\`{"elements": {"pay-button": ["pay-button-….js", "chunk-….js",
  …]}}\`, cached for a minute like the loader), and a server that writes
  \`<link rel="modulepreload" href="{service}/paykit/{file}">\` for each of them saves the loader's round trip (on a
  slow phone network, about a sixth of the time until the button works: docs/performance.md). The names change
  with each release of the service, so read them when you render, not once.
- **With the npm package on the same page.** Each tag is defined once, by whichever comes first; the other leaves it
  alone. Both read one page configuration, so \`configure()\` and \`data-public-key\` reach every element.

## Server rendering: \`paykit/ssr\`

\`paykit/ssr\` renders the elements on a server with their shadow DOM as declarative shadow DOM (Lit's
\`@lit-labs/ssr\`). The browser shows the result before any script runs, the pay button with its label and amount;
when the elements are defined they hydrate: they keep that markup and attach their listeners, so nothing is drawn
twice and nothing shifts. Rendering calls no network: the merchant's settings and the transactions are loaded in
the browser, after hydration (the table renders its loading state on the server).

\`\`\`js
import { html, renderToString } from 'paykit/ssr';

const widgets = await renderToString(html\`<pay-button amount=\${price} order-id=\${orderId}></pay-button>\`);
// … put \`widgets\` into your page, with the script tag (or your bundle that imports paykit) after it.
\`\`\`

Give the elements attributes (what the browser sees too), and \`locale\` unless the page is in en-US: the server
cannot read the page's \`lang\`. A merchant's configured button label arrives in the browser, so a page that sets
one should pass it as \`label\` to keep the button from changing width. \`renderToStream()\` gives the same HTML as a
Node stream. Hydration needs the script that defines the elements to be the same release as the renderer (their
templates must match): with the script tag, keep the \`paykit\` package current; an element that cannot keep the
server's markup renders it again and says so in the console.

- **Node** (any server that writes HTML): render, put the string in the page, add the script tag. Hydration support
  comes with the script tag: the loader sees the server-rendered elements and loads it before Lit.
- **Vite SSR** (\`ssrLoadModule\` or a built server entry): the same, in the server entry. When the page's own
  bundle imports \`paykit\` instead of using the script tag, import Lit's hydration support first:
  \`import '@lit-labs/ssr-client/lit-element-hydrate-support.js'; import 'paykit';\`. The demo's
  \`/checkout.html\` is rendered this way (demo/backend/checkout-page.ts).
- **Next.js** (App Router): render in a Server Component and insert the HTML, e.g.
  \`<div dangerouslySetInnerHTML={{ __html: await renderToString(html\\\`<pay-button amount="\${price}"></pay-button>\\\`) }} />\`,
  and load the script tag with \`<Script type="module" src="{service}/paykit.js" data-public-key="pk_…" />\` (or,
  in a Client Component, the two imports above). Keep \`paykit/ssr\` on the server: it imports Lit's server build.

Firefox before 123, within the floor below, has no declarative shadow DOM: there a server-rendered element shows
nothing until the script runs, and then renders itself.

## Browsers

The elements support the floor in package.json's \`browserslist\`: Baseline 2022 with Safari and iOS from 16.4
(Chrome, Edge and Firefox 108). \`npm test\` checks the sources against it (docs/decisions.md).

`;

for (const module of manifest.modules) {
  for (const d of module.declarations ?? []) {
    if (!d.tagName) continue;
    out += `## \`<${d.tagName}>\`\n\n${d.description ?? ''}\n\n`;
    out += table(['attribute', 'property', 'type', 'default', ''], (d.attributes ?? []).map((a) => [`\`${a.name}\``, a.fieldName ? `\`${a.fieldName}\`` : '', a.type?.text ?? '', a.default ?? '', a.description ?? '']));
    // Fields from `static properties` come as privacy 'public'; plain public fields carry no privacy.
    const props = (d.members ?? []).filter((m) => m.kind === 'field' && (!m.privacy || m.privacy === 'public') && !m.static && !(d.attributes ?? []).some((a) => a.fieldName === m.name));
    out += table(['property (no attribute)', 'type', ''], props.map((m) => [`\`${m.name}\``, m.type?.text ?? '', m.description ?? '']));
    out += table(['event', 'detail', ''], (d.events ?? []).map((e) => [`\`${e.name}\``, e.type?.text ?? '', e.description ?? '']));
    out += table(['part', ''], (d.cssParts ?? []).map((p) => [`\`${p.name}\``, p.description ?? '']));
    out += table(['custom property', ''], (d.cssProperties ?? []).map((p) => [`\`${p.name}\``, p.description ?? '']));
    out += table(['custom state (`:state(…)`)', ''], (d.cssStates ?? []).map((p) => [`\`${p.name}\``, p.description ?? '']));
  }
}
writeFileSync('docs/widgets.md', out);
console.log('wrote docs/widgets.md');
