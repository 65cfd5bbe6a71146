/**
 * The elements take the widget API's types from the service's schemas: src/widget-wire-types.ts is generated
 * from server/schemas/widgets.ts, and src/widget-api.ts derives what the elements use from it. This fails when
 * a schema changed and the file was not generated again (npm run client-types); test/client/schema-types.check.ts
 * checks each generated type against TypeBox's Static of its schema.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { generateWidgetTypes, WIDGET_OUTPUT } from '../../scripts/client-types.ts';

test('src/widget-wire-types.ts is what server/schemas/widgets.ts generates (npm run client-types)', async () => {
  assert.equal(readFileSync(WIDGET_OUTPUT, 'utf8'), await generateWidgetTypes(), 'stale: run npm run client-types');
});

test('the browser code takes only types from the generated file, never server code', () => {
  const api = readFileSync(new URL('../../src/widget-api.ts', import.meta.url), 'utf8');
  assert.match(api, /^import type \{[^}]+\} from '\.\/widget-wire-types\.ts';$/m);
  assert.doesNotMatch(readFileSync(WIDGET_OUTPUT, 'utf8'), /^import /m, 'the generated file stands alone');
});
