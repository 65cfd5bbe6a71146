/**
 * docs/widgets.md: the prose below, then each element's reference from the manifest (the elements' own JSDoc), so
 * the reference cannot drift from the code.
 */
import type { Element, Named } from './model.ts';

const PROSE = `# Widgets

Generated from the elements' JSDoc by \`npm run integrations\` (do not edit by hand; the prose is in
scripts/integrations/widget-docs.ts). Load them with the script tag (\`<script type="module" src="{service}/paykit.js"
data-public-key="pk_…">\`) or from npm (below); every element also takes \`public-key\` and \`base-url\`, which win over
the script tag and \`configure()\`. The HTTP calls behind them are in [widget-api.md](widget-api.md); the
Content-Security-Policy a page needs is in [csp.md](csp.md); React, Vue, Preact, Solid and Svelte in [adapters.md](adapters.md).

## The script tag

\`/paykit.js\` carries Lit, the elements' base and \`<pay-button>\` (about 12.4 KB brotli in all), so a pay button works
as soon as that one file has arrived, as fast as a bare Lit element would. It takes the public key from its own
\`data-public-key\` and the service from its own origin, then defines each element the first time one appears in the
document: the pay button from itself, the other two by importing that element's module (and, in parallel, everything
the module imports) from \`{service}/paykit/\`, which take Lit and the base from \`/paykit.js\`. Those files are
named by a hash of their content and cached for a year; \`/paykit.js\` itself is cached for a minute and then
revalidated (a 304 when nothing changed). Every file comes compressed (brotli or gzip). A page that shows no pay
button still fetches it with the script tag: from npm, import only the elements you show (below).

- **Shadow roots.** The loader watches the document, not the shadow roots of your own components. Tell it about one:

  \`\`\`js
  import { observe } from 'https://pay.example.com/paykit.js'; // the same URL as the script tag: the same module
  observe(this.shadowRoot); // defines the Paykit elements in it now, and those added to it later
  \`\`\`
- **Preloading.** Put the script tag in \`<head>\` so it starts early; it asks for an element's files as soon as it
  runs. A page that shows the payment request button or the table can start their files earlier still, beside the
  script tag: \`GET {service}/paykit.json\` names each element's files (\`{"elements": {"pay-button": [],
  "transactions-table": ["transactions-table-….js", …]}, "languages": {"fr": […]}}\`, cached for a minute like the
  script tag; the pay button has none, it is in \`/paykit.js\`), and a server that writes \`<link rel="modulepreload"
  href="{service}/paykit/{file}">\` for each of them saves a round trip. The names change with each release of the
  service, so read them when you render, not once. On a page whose \`lang\` is Spanish, French or German the script
  tag fetches that language's texts as soon as it runs.
- **When the network fails.** A module that fails to download (the payment request button's or the table's) is tried
  again three times, over about five seconds. If it still fails, each element of its kind shows a short message in
  place (a \`role="alert"\` paragraph inside it), fires its own error event (\`request-error\`, \`transactions-error\`) with code
  \`network\`, and the document gets \`paykit:load-error\` (\`detail.tag\`). The next element of that kind added, or
  the browser coming back online, tries again; once the module arrives, the elements work and the message goes.
- **Ready.** To act once an element works, wait for its definition:
  \`await customElements.whenDefined('pay-button')\` (it waits across failed attempts and resolves on the one that
  succeeds).
- **With the npm package on the same page.** Each tag is defined once, by whichever comes first; the other leaves it
  alone. Both read one page configuration, so \`configure()\` and \`data-public-key\` reach every element.

## From npm

\`npm install paykit\` installs Paykit and Lit's packages, nothing else. \`import 'paykit'\` defines the three elements
and exports their classes, \`configure({ publicKey, baseUrl })\` and the types; \`import 'paykit/pay-button'\` (or
\`paykit/request-payment-button\`, \`paykit/transactions-table\`) defines one element and exports its class, and a
bundler then keeps only that element's code (package.json's \`sideEffects\` names the files that define elements).
The manifest is \`paykit/custom-elements.json\`; VS Code's HTML and CSS data (the tags, attributes, \`--paykit-*\`
properties and parts, with their descriptions) are in the package's \`editors/\` folder:

\`\`\`json
// .vscode/settings.json
{ "html.customData": ["./node_modules/paykit/editors/vscode.html-custom-data.json"],
  "css.customData": ["./node_modules/paykit/editors/vscode.css-custom-data.json"] }
\`\`\`

## Languages

The elements speak English, Spanish, French and German: their \`locale\` (else the page's \`lang\`, else en-US) picks
the texts and formats amounts and dates through \`Intl\`; a language other than English is a small module loaded when
first needed. \`strings\` replaces any text in any language (the keys are in each element's table below and its
\`…Strings\` export), e.g. \`el.strings = { verb: 'Order' }\`. The pay page opens in that language; amounts are US dollars.

## Themes

\`theme="light"\` or \`"dark"\` fixes the colours, \`"auto"\` follows the visitor's system. Without \`theme\`, an element
follows the page's (inherited) \`color-scheme\`: \`dark\` is dark, \`light dark\` follows the system, and none is light,
whatever the system says. The \`--paykit-*\` custom properties below win in both schemes.

## Errors

Every \`*-error\` event carries \`{code, message}\`, and for \`csp\` also \`developerMessage\`. The message is for the
payer (in the element's language, or the service's words when the service refused) and is what the element shows;
\`developerMessage\`, when present, is for you (also written to the console). The code is for your code, stable across
releases and languages: the service's own reason when it refused (the envelope's \`code\`, as \`paykit/client\`'s
errors), else the HTTP status, for an answer without one (a proxy's error page).

| \`code\` | when | what to do |
|---|---|---|
| \`network\` | no answer from the service: offline, refused, timed out, or refused by CORS without a reason | try again; check \`base-url\` |
| \`csp\` | the page's Content-Security-Policy blocked a call (\`connect-src\`) or the payment window (\`frame-src\`); the payer sees a short sentence, \`developerMessage\` names the directive and the origin to add | add it: [csp.md](csp.md) |
| \`config\` | the element lacks its public key, the service's address, a phone number or a session token | set the attribute the message names |
| \`expired\` | the pay link expired before it was paid | click again: a new link is made |
| \`forbidden\` | the service refused the page's origin (403): it is not among the merchant's \`allowed_origins\`, or none is set in production | \`PUT /api/v1/widgets/\` with \`allowed_origins\` |
| \`rate_limited\` | too many calls from this page (429), or a phone that was already texted 5 times this hour | wait; the message says how long |
| \`authentication_failed\` | a session token that is missing, expired or refused (401) | mint a new token (\`fetchSessionToken\`) |
| \`not_found\` | a public key the service does not know, or nothing of this key with that id (404) | check \`public-key\` |
| \`invalid_request\` | an amount that is not a price, a phone number that is not one, or a request the service refused as invalid (400) | fix the value the message names |
| \`conflict\` | the thing is not in a state that allows it (409): an order id already paid, a refund already made | reload; use a new \`order-id\` |
| \`card_declined\` | the card or bank declined the payment; the pay page stays open for another try | nothing: the payer may try again |
| \`body_too_large\`, \`unsupported_content_type\`, \`idempotency_key_reused\` | the service refused the call's form (413, 415, 422): not expected from the elements | report it |
| \`service_error\` | the service failed (5xx) or answered what the element did not expect | try again later |

## After \`pay-success\`

\`pay-success\` tells the page that the payer paid: update the page, not the order. Before you ship anything, your
server checks the payment itself: that the transaction with that \`transaction_id\` is your merchant's sale
(\`type: "sale"\`: a refund is a row of its own with the sale's order id), for your order and its amount, and that its
\`state\` is \`completed\`, not \`refunded\` (\`paykit.transactions.get\`, \`GET /api/v1/merchant/transactions/{id}\`, or
the \`payment.success\` webhook). A page can be changed by whoever looks at it; your server's records cannot.

The button then reads *Paid*: pressed again, it starts no second payment of that order and tells the payer the order
is already paid (in their language). Give it another \`amount\`, \`order-id\` or \`description\` and it is a pay
button for that new order.

A bank (ACH) payment fires \`pay-pending\` instead: it was submitted and waits for the bank, which may still refuse it
days later. Show the payer that it is on its way, and ship when the \`ach.update\` webhook says \`Approved\`.

## Server rendering: \`paykit/ssr\`

\`paykit/ssr\` renders the elements on a server with their shadow DOM as declarative shadow DOM (Lit's
\`@lit-labs/ssr\`, an optional peer of the package: \`npm install @lit-labs/ssr\` where you render). The browser shows the result before any script runs, the pay button with its label and amount;
when the elements are defined they hydrate: they keep that markup and attach their listeners, so nothing is drawn
twice and nothing shifts. Rendering calls no network: the merchant's settings and the transactions are loaded in
the browser, after hydration (the table renders its loading state on the server).

\`\`\`js
import { html, renderToString } from 'paykit/ssr';

const widgets = await renderToString(html\`<pay-button amount=\${price} order-id=\${orderId}></pay-button>\`);
// … put \`widgets\` into your page, with the script tag (or your bundle that imports paykit) after it.
\`\`\`

Give the elements attributes (what the browser sees too), and \`locale\` unless the page is in en-US: the server
cannot read the page's \`lang\` (it has every language's texts at hand). A merchant's configured button label arrives in the browser, so a page that sets
one should pass it as \`label\` to keep the button from changing width. \`renderToStream()\` gives the same HTML as a
Node stream. Hydration needs the script that defines the elements to be the same release as the renderer (their
templates must match): with the script tag, keep the \`paykit\` package current; an element that cannot keep the
server's markup renders it again and says so in the console.

- **Node** (any server that writes HTML): render, put the string in the page, add the script tag. Hydration support
  comes with the script tag: it sees the server-rendered elements and loads it before defining them.
- **Vite SSR** (\`ssrLoadModule\` or a built server entry): the same, in the server entry. When the page's own
  bundle imports \`paykit\` instead of using the script tag, import Lit's hydration support first (\`npm install
  @lit-labs/ssr-client\`): \`import '@lit-labs/ssr-client/lit-element-hydrate-support.js'; import 'paykit';\`. The demo's
  \`/checkout.html\` is rendered this way (demo/backend/checkout-page.ts).
- **Next.js** (App Router, \`next dev\` and \`next start\` alike): render in a Server Component, insert the HTML with
  \`suppressHydrationWarning\`, and load the script tag with \`crossOrigin="anonymous"\` (below). Keep \`paykit/ssr\` on
  the server: it imports Lit's server build.

\`\`\`jsx
// app/checkout/page.jsx (a Server Component)
import Script from 'next/script';
import { html, renderToString } from 'paykit/ssr';

export default async function Checkout() {
  const widgets = await renderToString(html\`<pay-button amount="25.00" order-id="order-1002"></pay-button>\`);
  return (
    <main>
      <div suppressHydrationWarning dangerouslySetInnerHTML={{ __html: widgets }} />
      <Script type="module" src="https://pay.example.com/paykit.js" data-public-key="pk_…" crossOrigin="anonymous" />
    </main>
  );
}
\`\`\`

The two attributes keep the browser's console clean. The browser turns each \`<template shadowrootmode>\` into the
element's shadow root while it parses, so the \`<div>\` holds other children than React sent: \`suppressHydrationWarning\`
says that is expected, so React neither reports a mismatch nor parses the HTML again (Chromium warns of that parse).
\`crossOrigin="anonymous"\` gives \`<Script>\`'s \`<link rel="preload">\` the module script's credentials mode, else the
preload goes unused and the browser says so. test/package/nextjs.test.ts runs this recipe with \`next build\` + \`next
start\` and \`next dev\` in Chromium (\`PAYKIT_TEST_NEXT=1\`): a clean console, and the page without the two as control.

Firefox before 123, within the floor below, has no declarative shadow DOM: there a server-rendered element shows
nothing until the script runs, and then renders itself.

## Browsers

The elements support the floor in package.json's \`browserslist\`: Baseline 2022 with Safari and iOS from 16.4
(Chrome, Edge and Firefox 108). \`npm test\` checks the sources against it (docs/decisions.md).

`;

/** Prose after an element's own description: how to use it beyond its reference. */
const GUIDES: Record<string, string> = {
  'transactions-table': `### As the merchant's payments console (#32)

The merchant's server mints the token with the features the page may use (\`POST /api/v1/widgets/sessions\`
\`{ merchant_key, features: { refunds, voids, captures, export, receipts, payouts, disputes } }\`, all false: read-only);
the table shows what each listing page says it allows, and the service refuses the rest (403, shown beside the row):

\`\`\`js
table.fetchSessionToken = async () => (await (await fetch('/my-server/paykit-session', { method: 'POST' })).json()).session_token;
\`\`\`

- **Find.** Search (a transaction id, an order id or its beginning, a last four, an amount such as \`12.50\`, a pay
  link's e-mail), status, kind, card, dates and sort are attributes and one \`filters\` property (the query's names).
  In the page's URL: \`table.filters = Object.fromEntries(new URLSearchParams(location.search))\` on load,
  \`history.replaceState(null, '', '?' + new URLSearchParams(event.detail))\` on \`transactions-filter-change\`.
- **Details.** A row's date is a button (Enter or Space) that opens its timeline and refunds under it; Escape
  closes them. Details, actions and export are a module imported at first use (about 2.4 KB brotli).
- **Act.** Refund (whole or part), void, capture (whole or part) and release a hold, undo a sale (a void while
  possible, else a refund of the rest; the panel says which), resend the receipt. A money action first asks exactly
  what will happen ("Refund $11.50 of $11.50 to Visa •••• 4242?"); nothing is sent before *yes* (Escape says no; an
  empty amount is the whole). Each success fires its event (\`transaction-refunded\`, \`-voided\`, \`-captured\`,
  \`-released\`, \`-undone\`, \`receipt-sent\`) and updates the row; a refusal shows beside it in the merchant's words
  (\`transactions-error\`). Each action's \`Idempotency-Key\` is the same on a retry: it happens once.
- **Export.** *Export CSV*: every page of the applied filters, with a byte-order mark, the table's words, local dates
  (zone named), the language's numbers (\`;\` and a decimal comma in es, fr, de); pending ACH has no fee or net.
- **Payouts** (#45, \`features.payouts\`). *Balance and payouts*: the balance and payouts; a payout's date opens its
  entries and their *Download CSV* (Escape closes); a sale's details say its fee and payout. Its own module.
- **Disputes** (#46, \`features.disputes\`; its own module). A disputed sale says *Disputed* (filter \`disputed\`); its
  details show the reason, the amount and 15.00 fee, the time left (said again each minute), the saved files (each a
  button that downloads it), the evidence form, submit and accept, each asked first (\`dispute-submitted\`, \`-accepted\`).
- **On a phone** (≤ 40rem) each row is a card of two lines; nothing is clipped or scrolls sideways. The pictures
  below: \`node scripts/console-screenshots.ts\` takes them again.

| 375 px, light | 375 px, dark | a row's details and actions |
|---|---|---|
| ![The console on a 375 px phone](images/console-375-light.png) | ![The console on a 375 px phone, dark](images/console-375-dark.png) | ![A row opened: timeline, refunds, actions](images/console-375-details.png) |

`,
};

const cell = (text = '') => text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');
const table = (headers: string[], rows: string[][]) =>
  rows.length === 0
    ? ''
    : `| ${headers.join(' | ')} |\n|${headers.map(() => '---').join('|')}|\n${rows.map((r) => `| ${r.map(cell).join(' | ')} |`).join('\n')}\n\n`;
const named = (items: Named[] | undefined, header: string) =>
  table(
    [header, ''],
    (items ?? []).map((item) => [`\`${item.name}\``, item.description ?? '']),
  );

export function widgetDocs(elements: Element[]): string {
  let out = PROSE;
  for (const element of elements) {
    const { declaration } = element;
    out += `## \`<${element.tag}>\`\n\n${declaration.description ?? ''}\n\n`;
    out += GUIDES[element.tag] ?? '';
    out += `\`import 'paykit/${element.tag}'\` defines it alone.\n\n`;
    out += table(
      ['attribute', 'property', 'type', 'default', ''],
      element.properties
        .filter((p) => p.attribute)
        .map((p) => [`\`${p.attribute}\``, `\`${p.name}\``, p.type, p.default ?? '', p.description]),
    );
    out += table(
      ['property (no attribute)', 'type', ''],
      element.properties.filter((p) => !p.attribute).map((p) => [`\`${p.name}\``, p.type, p.description]),
    );
    out += table(
      ['method', ''],
      element.methods.map((m) => [`\`${m.name}()\``, m.description]),
    );
    out += table(
      ['event', 'type', ''],
      element.events.map((e) => [`\`${e.name}\``, `\`${e.type}\``, e.description]),
    );
    out += named(declaration.cssParts, 'part');
    out += named(declaration.cssProperties, 'custom property');
    out += named(declaration.cssStates, 'custom state (`:state(…)`)');
  }
  return out;
}
