import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { openStore } from '../../server/store/open.ts';
import type { Executor } from '../../server/store/schema.ts';
import type { Store } from '../../server/store/store.ts';
import { createClient } from '../../server/services/clients.ts';

const executorOf = (store: Store) => (store as unknown as { db: Executor }).db;
const client = (id: string) => ({
  id,
  name: id,
  secret_hash: '0'.repeat(64),
  public_key: `pk_${id}`,
  created_at: new Date().toISOString(),
});

async function keptStore(t: import('node:test').TestContext) {
  const dir = mkdtempSync(join(tmpdir(), 'paykit-durable-'));
  const store = await openStore({ dataDir: dir });
  t.after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, store };
}

test('the embedded database writes in WAL mode with synchronous=FULL: a COMMIT returns once its WAL is on disk', async (t) => {
  const { store } = await keptStore(t);
  // Read on the writing connection: inside a unit of work.
  const pragma = (name: string) =>
    store.transaction(async (tx) => (await sql.raw(`PRAGMA ${name}`).execute(executorOf(tx))).rows[0]);
  assert.deepEqual(await pragma('journal_mode'), { journal_mode: 'wal' });
  assert.deepEqual(await pragma('synchronous'), { synchronous: 2 });
  // SQLite's own checkpoints, at its default size.
  assert.deepEqual(await pragma('wal_autocheckpoint'), { wal_autocheckpoint: 1000 });
  // Each unit's savepoint journal stays in memory rather than spilling to a temporary file.
  assert.deepEqual(await pragma('temp_store'), { temp_store: 2 });
});

test("a write is answered only once its group's COMMIT has returned: at that moment any connection sees it", async (t) => {
  const { dir, store } = await keptStore(t);
  const { clientId } = await createClient(store, 'Durable', new Date());
  // Checked synchronously as each write is answered, by a connection of its own: a COMMIT that has not returned
  // (its group still open, or the WAL still being synced) is not visible to it.
  const fresh = new SQLite(join(dir, 'paykit.sqlite'), { readonly: true });
  t.after(() => fresh.close());
  const visible = fresh.prepare('SELECT 1 FROM clients WHERE id = ?');
  const answeredUnseen: string[] = [];
  await Promise.all(
    Array.from({ length: 40 }, async (_, i) => {
      const id = `cli_durable_${i}`;
      if (i % 2 === 0) await store.clients.insert(client(id));
      else
        await store.transaction(async (tx) => {
          await tx.clients.insert(client(id));
          await tx.events.add(clientId, 'merchant.approval', { merchant_id: id }, new Date());
        });
      if (visible.get(id) === undefined) answeredUnseen.push(id);
    }),
  );
  assert.deepEqual(answeredUnseen, []);
});

test('under writes that never pause, the WAL stays bounded by its checkpoints, and nothing is lost', async (t) => {
  const { dir, store } = await keptStore(t);
  const { clientId } = await createClient(store, 'Busy', new Date());
  const padding = 'p'.repeat(3000);
  // Each round starts before the one before it is on disk: about 3,600 pages in all, over three times the checkpoint size.
  const rounds: Promise<unknown>[] = [];
  for (let round = 0; round < 120; round++) {
    rounds.push(
      Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          store.events.add(clientId, 'merchant.approval', { merchant_id: `m_${round}_${i}`, padding }, new Date()),
        ),
      ),
    );
    await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(rounds);
  const walBytes = statSync(join(dir, 'paykit.sqlite-wal')).size;
  assert.ok(walBytes < 2000 * 4096, `the WAL is ${Math.round(walBytes / 1024)} KB after ~3,600 pages were written`);
  assert.equal((await store.events.listForClient(clientId)).length, 3600);
});
