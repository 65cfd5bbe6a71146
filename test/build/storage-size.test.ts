import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Issue 30: the embedded database's own machinery stays small enough to read in one sitting; the rest is Kysely.
test('server/store/sqlite/ holds at most 400 lines', () => {
  const dir = 'server/store/sqlite';
  const lines = readdirSync(dir).reduce(
    (sum, file) => sum + readFileSync(join(dir, file), 'utf8').trimEnd().split('\n').length,
    0,
  );
  assert.ok(lines <= 400, `server/store/sqlite/ has ${lines} lines`);
});
