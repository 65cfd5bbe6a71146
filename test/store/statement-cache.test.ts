import { test } from 'node:test';
import assert from 'node:assert/strict';
import SQLite from 'better-sqlite3';
import { StatementCache } from '../../server/store/sqlite/statement-cache.ts';

test('the statement cache prepares each SQL text once and, when full, lets the least recently used one go', () => {
  const cache = new StatementCache(new SQLite(':memory:'), 3);
  const [a, b, c] = ['SELECT 1', 'SELECT 2', 'SELECT 3'].map((sql) => cache.prepare(sql));
  assert.equal(cache.prepare('SELECT 1'), a);
  assert.equal(cache.prepare('SELECT 2'), b);
  // Full: SELECT 3 was used least recently (SELECT 1 and 2 since), so it goes.
  const d = cache.prepare('SELECT 4');
  assert.equal(cache.prepare('SELECT 1'), a);
  assert.equal(cache.prepare('SELECT 2'), b);
  assert.equal(cache.prepare('SELECT 4'), d);
  assert.notEqual(cache.prepare('SELECT 3'), c);
  // SELECT 3 came back in place of SELECT 1, now the least recently used.
  assert.notEqual(cache.prepare('SELECT 1'), a);
  assert.equal((cache.prepare('SELECT 4').get() as Record<string, number>)['4'], 4);
  cache.close();
});
