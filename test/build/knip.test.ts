/**
 * Nothing dead: knip (configured in knip.jsonc) finds no unused file, dependency, export or exported type, and no
 * dependency used but undeclared. Unused locals and imports are tsc's part (`noUnusedLocals`, npm run typecheck).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('knip finds nothing unused or undeclared', async () => {
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      process.execPath,
      ['node_modules/knip/bin/knip.js', '--no-progress', '--reporter', 'compact'],
      // No timeout of its own (a load of 13 took Prettier's like check past 60 s): the test pool's limit stops it.
      { cwd: root },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr }),
    );
  });
  assert.equal(
    code,
    0,
    `knip's findings (remove what nothing uses, or declare what is used; see knip.jsonc):\n${output}`,
  );
});
