import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildScriptTag } from '../../server/script-tag/bundle.ts';
import { compressFile } from '../../server/static/served-file.ts';
import { BUDGETS } from '../../bench/widget-budgets.ts';

/**
 * A file's brotli bytes with the content hash in each file name it holds replaced by the same eight characters: a
 * change to one file renames it, and the names' random hashes moved the loader's brotli size by up to 64 B for the same
 * code (bench/widget-budgets.ts). The budgets hold the code; the hashes are left out of them, and the loader is built
 * without them (they also moved its minified names).
 */
async function brotliBytesWithoutHashes(text: Buffer): Promise<number> {
  return (await compressFile(text.toString().replace(/\b([\w-]+)-[A-Z0-9]{8}\.js/g, '$1-HASHHASH.js'))).br.length;
}

test('the script tag stays within its byte budgets', async () => {
  const bundle = await buildScriptTag({ steadyNames: true });
  const bytes = new Map<string, number>([['/paykit.js', await brotliBytesWithoutHashes(bundle.loader.identity)]]);
  for (const [name, file] of bundle.files) bytes.set(name, await brotliBytesWithoutHashes(file.identity));
  const bytesOf = (tags: string[]) => {
    const files = new Set(['/paykit.js', ...tags.flatMap((tag) => bundle.elements[tag]!)]);
    return [...files].reduce((sum, name) => sum + bytes.get(name)!, 0);
  };
  const sizes = { payButtonPage: bytesOf(['pay-button']), allElementsPage: bytesOf(Object.keys(bundle.elements)) };
  for (const [name, bytes] of Object.entries(sizes)) {
    const budget = BUDGETS[name as keyof typeof BUDGETS];
    assert.ok(bytes <= budget, `${name}: ${bytes} B, over its budget of ${budget} B`);
  }
});
