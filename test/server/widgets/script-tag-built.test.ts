import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compressFile } from '../../../server/static/served-file.ts';
import { builtScriptTag } from '../../../server/script-tag/built-files.ts';
import type { ScriptTagBundle } from '../../../server/script-tag/bundle.ts';

async function smallBundle(loader: string): Promise<ScriptTagBundle> {
  return {
    loader: await compressFile(loader),
    manifest: await compressFile('{"elements":{}}'),
    files: new Map([['pay-button-abc.js', await compressFile('export const x = 1;')]]),
    elements: { 'pay-button': ['pay-button-abc.js'] },
    languages: { es: ['es-def.js'] },
  };
}

test("the script tag is built once and then read from disk by every process, until the widgets' sources change", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'paykit-built-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  let builds = 0;
  const build = async () => smallBundle(`loader ${++builds}`);
  let changedAt = 0;
  const options = { dir, changedAt: async () => changedAt };

  const first = await builtScriptTag(build, options);
  assert.equal(builds, 1);
  const read = await builtScriptTag(build, options);
  assert.equal(builds, 1, 'read from disk, not built again');
  for (const [name, file] of [['loader', read.loader] as const, ...read.files]) {
    const original = name === 'loader' ? first.loader : first.files.get(name)!;
    assert.deepEqual(
      [file.identity, file.br, file.gzip, file.tag],
      [original.identity, original.br, original.gzip, original.tag],
      name,
    );
  }
  assert.deepEqual([read.elements, read.languages], [first.elements, first.languages]);

  changedAt = Date.now() + 60_000;
  const rebuilt = await builtScriptTag(build, options);
  assert.equal(builds, 2, 'a source changed after the build: built again');
  assert.equal(rebuilt.loader.identity.toString(), 'loader 2');
});
