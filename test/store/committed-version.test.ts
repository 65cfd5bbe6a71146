import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { openStore } from '../../server/store/open.ts';
import type { Store } from '../../server/store/store.ts';
import { createClient } from '../../server/services/clients.ts';
import { openTestStore, testDatabases } from '../support/databases.ts';

/** Store.committedVersion: what lets an answer be kept until anything is committed (plugins/unchanged-answers.ts). */
describe('the committed version of the embedded database', () => {
  let dir: string;
  let store: Store;
  let version: () => number;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'paykit-version-'));
    store = await openStore({ dataDir: dir });
    version = store.committedVersion!;
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('stays the same while nothing is committed, reads included', async () => {
    const first = version();
    await store.merchants.listForClient('nobody');
    await store.clients.findById('nobody');
    assert.equal(version(), first);
  });

  test('moves with every commit of the service: a unit of work, and a write of its own', async () => {
    const first = version();
    await createClient(store, 'Version test', new Date());
    const second = version();
    assert.notEqual(second, first);
    await store.settings.set('version-test', 'one');
    assert.notEqual(version(), second);
  });

  test('moves when another process commits to the same file (the operator CLI, a second service)', () => {
    const first = version();
    const other = new SQLite(join(dir, 'paykit.sqlite'));
    try {
      other.prepare("UPDATE clients SET name = 'Changed elsewhere'").run();
    } finally {
      other.close();
    }
    assert.notEqual(version(), first);
  });

  test('is not offered inside a unit of work, which sees its own writes before they commit', async () => {
    await store.transaction(async (tx) => assert.equal(tx.committedVersion, undefined));
  });
});

for (const database of testDatabases().filter((d) => d === 'postgres')) {
  test(`PostgreSQL offers no committed version: every answer is made afresh (${database})`, async () => {
    const { store, close } = await openTestStore(database);
    try {
      assert.equal(store.committedVersion, undefined);
    } finally {
      await close();
    }
  });
}
