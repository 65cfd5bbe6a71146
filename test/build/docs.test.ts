/**
 * What the docs say that code or the build decides, held to it: the events docs/webhooks.md shows are the ones the
 * code makes; docs/client-reference.md has every operation and every method of paykit/client; the widgets' error
 * codes the README and docs/widgets.md name are the ones the elements give; the loader's size is the built one;
 * the README names the demo's port.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { eventDocs } from '../../scripts/event-docs.ts';
import { clientReference, servedOperations } from '../../scripts/client-reference.ts';
import { PaykitClient } from '../../client/index.ts';
import { REFUSAL_REASONS } from '../../contract/refusal-reasons.ts';
import { ELEMENT_ERROR_CODES } from '../support/widget-error-codes.ts';
import { buildScriptTag } from '../../server/script-tag/bundle.ts';

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');
const WIDGET_ERROR_CODES = [...REFUSAL_REASONS, ...ELEMENT_ERROR_CODES];

test("docs/webhooks.md's events are the ones the code makes (node scripts/event-docs.ts writes them)", () => {
  const page = read('docs/webhooks.md');
  assert.equal(page, eventDocs(page));
});

test('docs/client-reference.md is current, with every operation of the API and every method of paykit/client', async () => {
  const operations = await servedOperations();
  const page = read('docs/client-reference.md');
  assert.equal(page, clientReference(operations), 'written by node scripts/client-reference.ts');
  const missing = operations
    .filter(({ method, path }) => !page.includes(`\`${method} ${path}\``))
    .map(({ method, path }) => `${method} ${path}`);
  assert.deepEqual(missing, [], 'every operation');
  const paykit = new PaykitClient({ clientId: 'docs', secretKey: 'docs' }) as unknown as Record<string, object>;
  const methods = Object.keys(paykit)
    .filter((name) => typeof paykit[name] === 'object' && name !== 'baseUrl')
    .flatMap((api) =>
      Object.getOwnPropertyNames(Object.getPrototypeOf(paykit[api]))
        .filter((name) => name !== 'constructor')
        .map((name) => `paykit.${api}.${name}()`),
    );
  assert.ok(methods.length >= 40, `${methods.length} methods`);
  assert.deepEqual(
    methods.filter((method) => !page.includes(`**\`${method}\`**`)),
    [],
    'every method, with one line and an example',
  );
  assert.match(read('docs/client.md'), /\(client-reference\.md\)/);
  assert.match(read('README.md'), /\(docs\/client-reference\.md\)/);
});

test("the widgets' error codes the README names are the elements' own, and docs/widgets.md's table has every one", () => {
  const bullet = /^- \*\*Errors\*\* [\s\S]*?(?=\n- )/m.exec(read('README.md'))?.[0];
  assert.ok(bullet, "the README's Errors line");
  const named = [...bullet.split('beside the message:')[1]!.matchAll(/`([a-z_-]+)`/g)].map(([, code]) => code!);
  assert.deepEqual(
    named.filter((code) => !(WIDGET_ERROR_CODES as string[]).includes(code)),
    [],
    'no code the elements never give',
  );
  for (const code of ELEMENT_ERROR_CODES) assert.ok(named.includes(code), `the README names ${code}`);
  const table = /^## Errors\n[\s\S]*?\n\n(\| `code` [\s\S]*?)\n\n/m.exec(read('docs/widgets.md'))?.[1];
  assert.ok(table, "docs/widgets.md's table of codes");
  const listed = [...table.matchAll(/^\| ([^|]+) \|/gm)]
    .slice(1)
    .flatMap(([, cell]) => [...cell!.matchAll(/`([a-z_]+)`/g)].map(([, code]) => code!));
  assert.deepEqual([...listed].sort(), [...WIDGET_ERROR_CODES].sort(), 'each code once');
});

test("/paykit.js's size in the README and docs/widgets.md is the built one, and the README names the demo's port", async () => {
  const kilobytes = ((await buildScriptTag()).loader.br.length / 1024).toFixed(1);
  assert.match(read('README.md'), new RegExp(`\`/paykit\\.js\` carries the pay button \\(${kilobytes} KB brotli`));
  assert.match(read('docs/widgets.md'), new RegExp(`\\(about ${kilobytes} KB brotli in all\\)`));
  const demoPort = /DEMO_PORT \?\? (\d+)/.exec(read('scripts/start.ts'))?.[1];
  assert.match(read('README.md'), new RegExp(`\`DEMO_PORT\`, \`${demoPort}\` by default`));
});
