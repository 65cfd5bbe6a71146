import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildScriptTag } from '../../server/script-tag/bundle.ts';
import { BUDGETS } from '../../bench/widget-budgets.ts';

/**
 * The widgets' bytes on the wire, brotli as the service sends them: what a page fetches before its elements run (the
 * loader, which carries the pay button, then each other element's module and every file it imports). The build is
 * deterministic, so these are exact; `npm run bench` measures the same pages in Chromium.
 */
test('the script tag stays within its byte budgets', async () => {
  const bundle = await buildScriptTag();
  const bytesOf = (tags: string[]) => {
    const files = new Set(tags.flatMap((tag) => bundle.elements[tag]!));
    return bundle.loader.br.length + [...files].reduce((sum, name) => sum + bundle.files.get(name)!.br.length, 0);
  };
  const sizes = { payButtonPage: bytesOf(['pay-button']), allElementsPage: bytesOf(Object.keys(bundle.elements)) };
  for (const [name, bytes] of Object.entries(sizes)) {
    const budget = BUDGETS[name as keyof typeof BUDGETS];
    assert.ok(bytes <= budget, `${name}: ${bytes} B, over its budget of ${budget} B`);
  }
});
