/**
 * The wire types are generated once from the service's schemas into contract/wire-types.ts, which both the widgets
 * (src/) and paykit/client (client/) import. This fails when a schema changed and the generated files were not
 * written again (npm run client-types); test/contract/wire-types.check.ts checks each generated type against
 * TypeBox's Static of its schema.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { generateAnswerShapes, generateWireTypes, OUTPUT, SHAPES_OUTPUT } from '../../scripts/client-types.ts';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

test('contract/wire-types.ts is what server/schemas generate (npm run client-types)', async () => {
  assert.equal(readFileSync(OUTPUT, 'utf8'), await generateWireTypes(), 'stale: run npm run client-types');
});

test('client/answer-shapes.ts is what server/schemas generate (npm run client-types)', async () => {
  assert.equal(readFileSync(SHAPES_OUTPUT, 'utf8'), await generateAnswerShapes(), 'stale: run npm run client-types');
});

test('the generated file stands alone, and both products take only types from it', () => {
  assert.doesNotMatch(readFileSync(OUTPUT, 'utf8'), /^import /m, 'the generated file stands alone');
  assert.match(read('src/widget-api.ts'), /^import type \{[^}]+\} from '\.\.\/contract\/wire-types\.ts';$/m);
  assert.match(read('client/types.ts'), /^import type \* as Schema from '\.\.\/contract\/wire-types\.ts';$/m);
});

test('no product keeps a copy of its own', () => {
  for (const stale of ['src/widget-wire-types.ts', 'client/schema-types.ts']) {
    assert.throws(() => read(stale), { code: 'ENOENT' }, `${stale} is generated into contract/wire-types.ts now`);
  }
});
