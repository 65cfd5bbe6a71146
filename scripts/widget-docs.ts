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

Generated from the elements' JSDoc by \`npm run docs:widgets\` (do not edit by hand). Load them with the script tag
(\`<script type="module" src="{service}/paykit.js" data-public-key="pk_…">\`) or \`import 'paykit'\` and
\`configure({ publicKey, baseUrl })\`; every element also takes \`public-key\` and \`base-url\`, which win.
The HTTP calls behind them are in [widget-api.md](widget-api.md).

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
