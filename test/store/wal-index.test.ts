import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { WalIndex } from '../../server/store/sqlite/wal-index.ts';

test('the WAL index says how many frames the WAL holds, as a checkpoint counts them, also after the WAL starts over', () => {
  const dir = mkdtempSync(join(tmpdir(), 'paykit-wal-index-'));
  const file = join(dir, 'paykit.sqlite');
  const writer = new SQLite(file);
  writer.pragma('journal_mode = WAL');
  writer.pragma('wal_autocheckpoint = 0');
  const other = new SQLite(file);
  const index = new WalIndex(file);
  try {
    writer.exec('create table t (x text)');
    const insert = writer.prepare('insert into t values (?)');
    let checked = 0;
    for (const size of [10, 5000, 20_000, 100]) {
      insert.run('x'.repeat(size));
      const frames = index.frames();
      // PASSIVE copies what it can and answers the WAL's length; it never shortens the WAL itself.
      const { log } = (other.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]!;
      assert.equal(frames, log, `after a row of ${size} characters`);
      checked++;
    }
    for (let i = 0; i < 5; i++) insert.run('z'.repeat(10_000));
    const before = index.frames()!;
    other.pragma('wal_checkpoint(RESTART)');
    insert.run('y');
    const after = index.frames()!;
    assert.ok(after > 0 && after < before, `the WAL started over: ${before} frames, then ${after}`);
    assert.equal(checked, 4);
  } finally {
    index.close();
    other.close();
    writer.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('no WAL index (not yet created, or not a database in WAL mode): no figure, rather than a wrong one', () => {
  const dir = mkdtempSync(join(tmpdir(), 'paykit-wal-index-'));
  try {
    assert.equal(new WalIndex(join(dir, 'missing.sqlite')).frames(), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
