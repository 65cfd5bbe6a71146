/**
 * `npm run integrations`: everything that describes the elements to the outside, generated from one source, the
 * Custom Elements Manifest of the element sources: the manifest the package ships, the React and Vue components,
 * the bare tags' typings for React, Preact, Solid, Svelte, Vue and Angular, VS Code's custom data, docs/widgets.md, and
 * docs/adapters.md's table of the React components' props.
 *
 *     node scripts/integrations/index.ts          # write the files
 *     node scripts/integrations/index.ts --check  # exit 1 when a file is stale
 *
 * test/build/integrations.test.ts runs the check in `npm test`.
 */
import { readFileSync } from 'node:fs';
import { writeIfChanged } from '../write-if-changed.ts';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze, root } from './analyze.ts';
import { angularTypes } from './angular.ts';
import { preactTypes, solidTypes, svelteTypes, tagProps } from './jsx.ts';
import { elementsOf } from './model.ts';
import { adaptersDocs, reactComponents, reactElementComponent, reactElementFile, reactJsx } from './react.ts';
import { shippedManifest } from './shipped-manifest.ts';
import { vscodeCssData, vscodeHtmlData } from './vscode.ts';
import { vueCompiler, vueComponents, vueGlobalComponents } from './vue.ts';
import { widgetDocs } from './widget-docs.ts';

/** Every generated file, by its path in the repository, with its text. */
export async function generate(): Promise<Map<string, string>> {
  const manifest = await analyze();
  const elements = elementsOf(manifest);
  return new Map([
    ['custom-elements.json', shippedManifest(manifest, elements)],
    ['wrappers/react/index.ts', reactComponents(elements)],
    ...elements.map((element): [string, string] => [reactElementFile(element), reactElementComponent(element)]),
    ['wrappers/react/jsx.ts', reactJsx(elements)],
    ['wrappers/vue/index.ts', vueComponents(elements)],
    ['wrappers/vue/global-components.ts', vueGlobalComponents(elements)],
    ['wrappers/vue/compiler.ts', vueCompiler(elements)],
    ['wrappers/tag-props.ts', tagProps(elements)],
    ['wrappers/preact/index.ts', preactTypes(elements)],
    ['wrappers/solid/index.ts', solidTypes(elements)],
    ['wrappers/svelte/index.ts', svelteTypes(elements)],
    ['wrappers/angular/index.ts', angularTypes(elements)],
    ['editors/vscode.html-custom-data.json', vscodeHtmlData(elements)],
    ['editors/vscode.css-custom-data.json', vscodeCssData(elements)],
    ['docs/widgets.md', widgetDocs(elements)],
    // Its React table only: the rest of the page is written by hand.
    ['docs/adapters.md', adaptersDocs(readFileSync(join(root, 'docs/adapters.md'), 'utf8'), elements)],
  ]);
}

/** The generated files whose committed text differs from what the manifest generates now. */
export async function staleFiles(): Promise<string[]> {
  const stale: string[] = [];
  for (const [path, text] of await generate()) {
    let current: string | undefined;
    try {
      current = readFileSync(join(root, path), 'utf8');
    } catch {
      current = undefined;
    }
    if (current !== text) stale.push(path);
  }
  return stale;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--check')) {
    const stale = await staleFiles();
    if (stale.length) {
      console.error(`Stale: ${stale.join(', ')}. Run npm run integrations.`);
      process.exit(1);
    }
  } else {
    for (const [path, text] of await generate()) writeIfChanged(join(root, path), text);
    console.log(
      'wrote the manifest, the wrappers, the typings, the editor data, docs/widgets.md and the React table of docs/adapters.md',
    );
  }
}
