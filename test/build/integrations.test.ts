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
  const tags = ['pay-button', 'request-payment-button', 'transactions-table'];
  // One element's React entry (wrappers/react/pay-button.ts) describes that element alone.
  const oneElement = (path: string) => tags.find((tag) => path === `wrappers/react/${tag}.ts`);
  for (const tag of tags) {
    assert.ok(files.has(`wrappers/react/${tag}.ts`), `<${tag}> has its own React entry`);
    for (const [path, text] of files) {
      const only = oneElement(path);
      if (!only) assert.ok(text.includes(tag), `${path} describes <${tag}>`);
      else assert.equal(text.includes(`'${tag}'`), only === tag, `${path} describes <${only}> alone`);
    }
  }
  const manifest = JSON.parse(files.get('custom-elements.json')!);
  const events = manifest.modules.flatMap(
    (module: { declarations: { events?: { name: string; type?: { text: string } }[] }[] }) =>
      module.declarations.flatMap((declaration) => declaration.events ?? []),
  );
  assert.ok(
    events.length >= 7 &&
      events.every((event: { type?: { text: string } }) => /^CustomEvent<\w+>$/.test(event.type?.text ?? '')),
    'every event has its detail type',
  );
  assert.match(
    files.get('wrappers/react/index.ts')!,
    /export \{ PayButton, type PayButtonProps, type PayButtonElement \} from '\.\/pay-button\.ts';/,
  );
  assert.match(
    files.get('wrappers/react/pay-button.ts')!,
    /onPaySuccess\?: \(\(event: CustomEvent<PaySuccessDetail>\) => void\) \| undefined;/,
  );
  assert.match(
    files.get('wrappers/vue/compiler.ts')!,
    /'transactions-table': \['fetchSessionToken', 'strings', 'filters'\]/,
  );
  assert.match(files.get('wrappers/vue/index.ts')!, /expose: \['reload'\]/);
});
