/**
 * What describes the elements to the outside (the shipped manifest, the React and Vue components, the typings of the
 * bare tags, VS Code's data, docs/widgets.md) is generated from the elements' manifest by `npm run integrations`
 * and committed: this fails when a generated file is not what the elements generate now.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generate, staleFiles } from '../../scripts/integrations/index.ts';

test('every generated file is what the elements generate now (else: npm run integrations)', async () => {
  assert.deepEqual(await staleFiles(), []);
});

test('each element is in every face: wrappers, typings, editor data, docs', async () => {
  const files = await generate();
  for (const tag of ['pay-button', 'request-payment-button', 'transactions-table']) {
    for (const [path, text] of files) assert.ok(text.includes(tag), `${path} describes <${tag}>`);
  }
  const manifest = JSON.parse(files.get('custom-elements.json')!);
  const events = manifest.modules.flatMap((module: { declarations: { events?: { name: string; type?: { text: string } }[] }[] }) =>
    module.declarations.flatMap((declaration) => declaration.events ?? []));
  assert.ok(events.length >= 7 && events.every((event: { type?: { text: string } }) => /^CustomEvent<\w+>$/.test(event.type?.text ?? '')),
    'every event has its detail type');
  assert.match(files.get('wrappers/react/index.ts')!, /onPaySuccess\?: \(\(event: CustomEvent<PaySuccessDetail>\) => void\) \| undefined;/);
  assert.match(files.get('wrappers/vue/compiler.ts')!, /'transactions-table': \['fetchSessionToken', 'strings', 'filters'\]/);
  assert.match(files.get('wrappers/vue/index.ts')!, /expose: \['reload'\]/);
});
