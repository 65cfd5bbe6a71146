import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs, { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { openStore } from '../../server/store/open.ts';
import type { Executor } from '../../server/store/schema.ts';
import type { Store } from '../../server/store/store.ts';
import { createClient } from '../../server/services/clients.ts';

const executorOf = (store: Store) => (store as unknown as { db: Executor }).db;
const client = (id: string) => ({ id, name: id, secret_hash: '0'.repeat(64), public_key: `pk_${id}`, created_at: new Date().toISOString() });

async function keptStore(t: import('node:test').TestContext, options: Parameters<typeof openStore>[0]['sqlite'] = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'paykit-durable-'));
  const store = await openStore({ dataDir: dir, sqlite: options });
  t.after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, store };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; !condition(); i++) {
    assert.ok(i < 500, `timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test('the embedded database writes in WAL mode, copies the WAL back on its own thread, and journals savepoints in memory', async (t) => {
  const { store } = await keptStore(t);
  // Read on the writing connection: inside a unit of work.
  const pragma = (name: string) => store.transaction(async (tx) => (await sql.raw(`PRAGMA ${name}`).execute(executorOf(tx))).rows[0]);
  assert.deepEqual(await pragma('journal_mode'), { journal_mode: 'wal' });
  // NORMAL, because the WAL is synced after every commit by WalSync (next test), off the event loop, as FULL would inside COMMIT.
  assert.deepEqual(await pragma('synchronous'), { synchronous: 1 });
  assert.deepEqual(await pragma('wal_autocheckpoint'), { wal_autocheckpoint: 0 });
  // Each unit's savepoint journal stays in memory rather than spilling to a temporary file.
  assert.deepEqual(await pragma('temp_store'), { temp_store: 2 });
});

test('as durable as synchronous=FULL: a write is answered, and shown to reads, only once the WAL holding it is on disk', async (t) => {
  const { dir, store } = await keptStore(t);
  await createClient(store, 'Warm-up', new Date());
  // Every fdatasync goes through, but its completion is held until the test lets it go.
  const original = fs.fdatasync;
  const held: (() => void)[] = [];
  const synced: number[] = [];
  // What FULL guarantees is that the commit's frames are in the WAL when the WAL is synced: a connection of its own
  // (no snapshot held) sees the row at the moment the sync starts, so the sync covers the commit.
  const committedWhenSynced: boolean[] = [];
  fs.fdatasync = ((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
    synced.push(fd);
    const fresh = new SQLite(join(dir, 'paykit.sqlite'), { readonly: true });
    committedWhenSynced.push(fresh.prepare('SELECT 1 FROM clients WHERE id = ?').get('cli_durable') !== undefined);
    fresh.close();
    original(fd, (error) => held.push(() => callback(error)));
  }) as typeof fs.fdatasync;
  t.after(() => {
    fs.fdatasync = original;
  });

  let answered = false;
  const write = store.clients.insert(client('cli_durable')).then(() => (answered = true));
  await until(() => held.length === 1, 'the WAL sync has been done');
  assert.equal(fs.fstatSync(synced[0]!).ino, statSync(join(dir, 'paykit.sqlite-wal')).ino, 'the file synced is the WAL');
  assert.deepEqual(committedWhenSynced, [true], 'the sync started after the commit was written to the WAL');
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(answered, false, 'committed, synced, but not yet known to be on disk: not answered');
  assert.equal(await store.clients.findById('cli_durable'), undefined, 'nor shown to a read');

  held.shift()!();
  await write;
  assert.equal((await store.clients.findById('cli_durable'))?.name, 'cli_durable');
});

test('under writes that never pause, the WAL still starts over: it stays short, and nothing is lost', async (t) => {
  const { dir, store } = await keptStore(t, { walRestartFrames: 100 });
  const { clientId } = await createClient(store, 'Busy', new Date());
  const padding = 'p'.repeat(3000);
  // Each round starts before the one before it is on disk, so groups always overlap: about 1,200 pages in all.
  const rounds: Promise<unknown>[] = [];
  for (let round = 0; round < 40; round++) {
    rounds.push(Promise.all(Array.from({ length: 30 }, (_, i) => store.events.add(clientId, 'merchant.approval', { merchant_id: `m_${round}_${i}`, padding }, new Date()))));
    await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(rounds);
  const walBytes = statSync(join(dir, 'paykit.sqlite-wal')).size;
  assert.ok(walBytes < 600 * 4096, `the WAL is ${Math.round(walBytes / 1024)} KB after ~1,200 pages were written`);
  assert.equal((await store.events.listForClient(clientId)).length, 1200);
});
