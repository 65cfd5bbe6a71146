import { test } from 'node:test';
import assert from 'node:assert/strict';

test('importing the widget package on a server (Node, no DOM) does not throw', async () => {
  assert.equal(typeof (globalThis as { customElements?: unknown }).customElements, 'undefined', 'no DOM here');
  const paykit = await import('../../../src/index.ts');
  assert.equal(typeof paykit.configure, 'function');
  assert.equal(typeof paykit.PayButton, 'function');
  assert.equal(typeof paykit.TransactionsTable, 'function');
});
