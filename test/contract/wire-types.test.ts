/**
 * The wire types are generated once from the service's schemas into contract/wire-types.ts, which both the widgets
 * (src/) and paykit/client (client/) import, and the service's refusal reasons into contract/refusal-reasons.ts. This fails when a schema changed and the generated files were not
 * written again (npm run client-types); test/contract/wire-types.check.ts checks each generated type against
 * TypeBox's Static of its schema.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  generateAnswerShapes,
  generateRefusalReasons,
  generateWireTypes,
  OUTPUT,
  REASONS_OUTPUT,
  SHAPES_OUTPUT,
} from '../../scripts/client-types.ts';
import { REFUSAL_REASONS } from '../../contract/refusal-reasons.ts';
import { REASONS } from '../../server/domain/refusals.ts';
import { paykitError } from '../../client/errors.ts';

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

test('contract/refusal-reasons.ts is what server/domain/refusals.ts generates (npm run client-types)', async () => {
  assert.equal(readFileSync(REASONS_OUTPUT, 'utf8'), await generateRefusalReasons(), 'stale: run npm run client-types');
  assert.deepEqual(REFUSAL_REASONS, REASONS, 'the same reasons, in the same order');
});

test('paykit/client knows every reason the service refuses with, and no code of its own is taken from an answer', () => {
  for (const reason of [...REASONS, 'service_error'] as const) {
    const error = paykitError(418, 'Refused.', { body: { result: false, message: 'Refused.', code: reason } });
    assert.equal(error.code, reason);
  }
  const claimed = paykitError(500, 'Broken.', {
    body: { result: false, message: 'Broken.', code: 'connection_error' },
  });
  assert.deepEqual([claimed.code, claimed.constructor.name], ['service_error', 'PaykitServiceError']);
});
