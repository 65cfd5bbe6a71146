/**
 * One format: every file Prettier reads (.prettierrc.json; generated files, prose and builds are in .prettierignore)
 * is as `npm run format` writes it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('every file is formatted as Prettier writes it', async () => {
  const args = ['node_modules/prettier/bin/prettier.cjs', '--check', '.', '--log-level=warn'];
  const output = await new Promise<string>((resolve) => {
    execFile(process.execPath, args, { cwd: root, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve(error ? stdout + stderr || String(error) : ''),
    );
  });
  assert.equal(output, '', `not formatted (run npm run format):\n${output}`);
});
