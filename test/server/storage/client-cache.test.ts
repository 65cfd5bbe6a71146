import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClientCache } from '../../../server/plugins/client-cache.ts';

const client = (id: string) => ({ id, name: id, secret_hash: 'h', public_key: 'pk', created_at: '' });

test('entries expire after their lifetime', () => {
  const cache = new ClientCache(1000);
  cache.set('a', client('a'), 0);
  assert.equal(cache.get('a', 999)?.id, 'a');
  assert.equal(cache.get('a', 1000), undefined);
});

test('the cache holds at most its bound, dropping the oldest', () => {
  const cache = new ClientCache(60_000, 2);
  cache.set('a', client('a'), 0);
  cache.set('b', client('b'), 0);
  cache.set('c', client('c'), 0);
  assert.equal(cache.get('a', 1), undefined);
  assert.equal(cache.get('b', 1)?.id, 'b');
  assert.equal(cache.get('c', 1)?.id, 'c');
});
