/**
 * What the docs say that code or the build decides, held to it: the events docs/webhooks.md shows are the ones the
 * code makes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { eventDocs } from '../../scripts/event-docs.ts';

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');

test("docs/webhooks.md's events are the ones the code makes (node scripts/event-docs.ts writes them)", () => {
  const page = read('docs/webhooks.md');
  assert.equal(page, eventDocs(page));
});
