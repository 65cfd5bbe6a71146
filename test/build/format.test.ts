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
  // Reading the whole tree is ~18 s of CPU; under a load of 13 it took 65 s, where a 60 s timeout answered
  // "not formatted" with no file named. The test pool's ten-minute limit is what stops a stuck check.
  const output = await new Promise<string>((resolve) => {
    execFile(process.execPath, args, { cwd: root }, (error, stdout, stderr) =>
      resolve(error ? stdout + stderr || String(error) : ''),
    );
  });
  assert.equal(output, '', `not formatted (run npm run format):\n${output}`);
});
