import { brandPalette } from '../domain/brand-colours.ts';
import type { Brand } from '../domain/brand.ts';
import { html, raw, type Html } from './html.ts';

export type { Brand };

/** A rendered page and the status it is sent with. */
export interface Page {
  status: number;
  html: string;
}

const STYLES = raw(`
:root{color-scheme:light dark;--bg:#f6f7f9;--card:#fff;--fg:#1a1b1f;--muted:#4b4d57;--line:#8a8d99;--soft:#d9dbe2;
--accent:#0b57d0;--on-accent:#fff;--error:#b3261e;--error-bg:#fdeceb;--warn-bg:#fff4d6;--code:#eceef3}
@media (prefers-color-scheme:dark){:root{--bg:#121316;--card:#1c1d22;--fg:#ecedf1;--muted:#b9bbc6;--line:#7d808c;--soft:#34363e;
--accent:#8ab4f8;--on-accent:#0a1a33;--error:#f2b8b5;--error-bg:#3a1614;--warn-bg:#3a2f0b;--code:#2a2c33}}
*,*::before,*::after{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",sans-serif;-webkit-text-size-adjust:100%}
header,main{max-width:48rem;margin:0 auto;padding:1rem}
header{padding-bottom:0}
.brand{margin:0;font-weight:700;letter-spacing:.02em}
h1{font-size:clamp(1.5rem,5vw,2rem);line-height:1.2;margin:.5rem 0 1rem}
h2{font-size:1.25rem;line-height:1.3;margin:1.75rem 0 .5rem}
h3{font-size:1.0625rem;margin:1.25rem 0 .25rem}
h4{font-size:1rem;margin:.75rem 0 .25rem}
a{color:var(--accent);text-underline-offset:.15em}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.links a,nav a{display:inline-block;padding:.625rem 0}
fieldset{border:1px solid var(--soft);border-radius:.5rem;padding:1rem;margin:0 0 1.5rem;background:var(--card);min-width:0}
legend{font-weight:700;font-size:1.125rem;padding:0 .25rem}
.field{margin:0 0 1.25rem}
label{display:block;font-weight:600;margin:0 0 .25rem}
.optional{font-weight:400;color:var(--muted)}
input,select,button{font:inherit;min-height:44px}
input:not([type=checkbox]),select{display:block;width:100%;max-width:32rem;padding:.5rem .75rem;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:.375rem}
[aria-invalid=true]{border:2px solid var(--error)!important}
.hint{color:var(--muted);margin:0 0 .375rem;font-size:.9375rem}
.error{color:var(--error);font-weight:600;margin:0 0 .375rem}
.check{display:flex;gap:.75rem;align-items:center;min-height:44px}
.check input{width:1.5rem;height:1.5rem;min-height:0;margin:0;flex:none;accent-color:var(--accent)}
.check label{margin:0;padding:.5rem 0}
button{padding:.625rem 1.5rem;border:0;border-radius:.375rem;background:var(--fill,var(--accent));color:var(--on-fill,var(--on-accent));font-weight:700;cursor:pointer}
.summary{border:2px solid var(--error);background:var(--error-bg);border-radius:.5rem;padding:1rem;margin:0 0 1.5rem}
.summary h2{margin-top:0}
.summary ul{margin:0;padding:0;list-style:none}
.summary a{display:block;padding:.5rem 0;font-weight:600}
.warning{background:var(--warn-bg);border-left:4px solid currentColor;padding:.75rem 1rem;border-radius:.25rem}
.agreement{background:var(--bg);border-radius:.375rem;padding:.25rem 1rem;margin:0 0 1rem}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9375em;background:var(--code);border-radius:.25rem}
code{padding:.1em .3em;overflow-wrap:anywhere}
pre{padding:.75rem 1rem;white-space:pre-wrap;overflow-wrap:anywhere}
pre code{padding:0;background:none}
dl{display:grid;gap:.25rem 1rem}
dt{font-weight:600}
dd{margin:0 0 .75rem}
.fields{margin:.25rem 0;padding-left:1.25rem}
.fields li{margin:.25rem 0}
.type{color:var(--muted)}
.op{border-top:1px solid var(--soft);padding-top:.5rem}
.method{font-weight:700}
.pay-amounts{border-collapse:collapse;width:100%;max-width:32rem;margin:0 0 1.5rem}
.pay-amounts caption{text-align:left;font-weight:700;padding:0 0 .25rem}
.pay-amounts th,.pay-amounts td{padding:.375rem 0;border-bottom:1px solid var(--soft);text-align:left;font-weight:400}
.pay-amounts td{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap;padding-left:1rem}
.pay-amounts .total th,.pay-amounts .total td{font-weight:700}
.pay-row{display:flex;flex-wrap:wrap;align-items:flex-end;gap:0 1rem;max-width:32rem}
.pay-row .field{flex:1 1 11rem;min-width:0}
.pay-inside{position:relative;max-width:32rem}
.pay-inside input{padding-inline-end:6.5rem;font-variant-numeric:tabular-nums}
.pay-brand{position:absolute;inset-inline-end:.75rem;top:50%;transform:translateY(-50%);font-weight:700;color:var(--muted);pointer-events:none}
.pay-note{background:var(--card);border:1px solid var(--soft);border-radius:.5rem;padding:.75rem 1rem;margin:0 0 1.5rem}
.pay-note h2{margin-top:0}
.pay-note>:last-child{margin-bottom:0}
.pay-actions{display:flex;flex-wrap:wrap;gap:1rem;margin:0 0 1.5rem}
.pay-actions a{display:inline-block;padding:.625rem 0}
button.pay-secondary{background:transparent;color:var(--accent);border:2px solid var(--accent)}
.visually-hidden{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;border:0;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.brand-bar{border-top:4px solid var(--fill,transparent)}
.brand{display:flex;align-items:center;gap:.75rem;min-height:2.5rem}
.brand img{max-height:2.5rem;max-width:10rem;width:auto;height:auto}
footer{max-width:48rem;margin:0 auto;padding:1rem;color:var(--muted);font-size:.875rem}
.pay-page h1{margin:.25rem 0 0}
.pay-total{font-size:1.375rem;font-weight:700;margin:0 0 .5rem;font-variant-numeric:tabular-nums}
details>summary{cursor:pointer;padding:.625rem 0;font-weight:600;color:var(--accent)}
.pay-details{margin:0 0 .75rem}
.pay-details[open]{margin-bottom:1.5rem}
.pay-details dl{grid-template-columns:max-content minmax(0,1fr);max-width:32rem;margin:.25rem 0 1rem}
.pay-details dd{margin:0;overflow-wrap:anywhere}
.pay-choice{border:0;padding:0;margin:0 0 .75rem;background:none}
.pay-choice legend{font-size:1rem;font-weight:600;padding:0;margin:0 0 .25rem}
.pay-options{display:flex;flex-wrap:wrap;gap:.5rem;max-width:32rem}
.pay-option{flex:1 1 8rem;display:flex;align-items:center;gap:.5rem;margin:0;padding:.5rem .75rem;min-height:44px;border:1px solid var(--line);border-radius:.375rem;background:var(--card);cursor:pointer}
.pay-option:has(input:checked){border:2px solid var(--accent)}
.pay-option input[type=radio]{display:block;width:1.25rem;height:1.25rem;min-height:0;margin:0;padding:0;flex:none;accent-color:var(--accent)}
main:has(#choose-ach:checked) .for-card,main:has(#choose-card:checked) .for-ach{display:none}
.pay-methods fieldset{padding-top:.75rem}
.summary:focus{outline:3px solid var(--accent);outline-offset:2px}
`);

/** The brand's colour as the page's custom properties: see domain/brand-colours.ts for what is used where. */
function brandStyles(colour: string | undefined): Html {
  if (!colour) return html``;
  const palette = brandPalette(colour);
  const light = palette.lightAccent
    ? `@media not (prefers-color-scheme:dark){:root{--accent:${palette.lightAccent}}}`
    : '';
  const dark = palette.darkAccent ? `@media (prefers-color-scheme:dark){:root{--accent:${palette.darkAccent}}}` : '';
  return html`<style>${raw(`:root{--fill:${palette.fill};--on-fill:${palette.onFill}}${light}${dark}`)}</style>`;
}

/** The tab's title: the page's, then whose page it is, unless the title names it already ("Pay Juniper Coffee Co."). */
const documentTitle = (title: string, brand: Brand | undefined) =>
  brand && title.includes(brand.name) ? title : `${title} · ${brand?.name ?? 'Paykit'}`;

/** The header: the brand's logo and name, or Paykit on Paykit's own pages. */
function header(brand: Brand | undefined): Html {
  if (!brand) return html`<header><p class="brand">Paykit</p></header>`;
  const logo =
    brand.logo && html`<img src="${brand.logo.url}" alt="" width="${brand.logo.width}" height="${brand.logo.height}">`;
  return html`<header class="brand-bar"><p class="brand">${logo}<span>${brand.name}</span></p></header>`;
}

/**
 * A whole HTML document: one landmark for the brand, one for the content, whose heading is the title. A page with a
 * brand (a merchant's or a platform's) is headed by it, with Paykit only in the footer; `className` marks the body
 * for a page's own layout.
 */
export function renderPage({
  title,
  body,
  status = 200,
  language = 'en',
  brand,
  className,
}: {
  title: string;
  body: Html;
  status?: number;
  language?: string;
  brand?: Brand | undefined;
  className?: string | undefined;
}): Page {
  const page = html`<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${documentTitle(title, brand)}</title>
<style>${STYLES}</style>
${brandStyles(brand?.colour)}
</head>
<body${className && html` class="${className}"`}>
${header(brand)}
<main>
<h1>${title}</h1>
${body}
</main>
${brand && html`<footer><p>Powered by Paykit</p></footer>`}
</body>
</html>
`;
  return { status, html: page.text };
}
