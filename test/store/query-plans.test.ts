import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery, Kysely, Migrator } from 'kysely';
import { migrationProvider } from '../../server/store/migrations/index.ts';
import { openSqlite } from '../../server/store/sqlite/open-sqlite.ts';
import { Store } from '../../server/store/store.ts';
import type { Database } from '../../server/store/schema.ts';

/**
 * The partial indexes (migrations 009 and 010) serve only queries that say their condition, as a literal: these run
 * the store's own queries, as it sends them, and ask SQLite how it would answer each.
 */
test("the store's queries that have partial indexes of their own are answered through them", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'paykit-plans-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const sqlite = openSqlite(dir);
  const ran: CompiledQuery[] = [];
  const db = new Kysely<Database>({ dialect: sqlite.dialect, log: (event) => void ran.push(event.query) });
  const store = new Store(db, {
    dialect: 'sqlite',
    runUnit: sqlite.units(db),
    onClose: async () => {
      await db.destroy();
      await sqlite.afterClose();
    },
  });
  t.after(() => store.close());
  const { error } = await new Migrator({ db, provider: migrationProvider('sqlite') }).migrateToLatest();
  if (error) throw error;
  /** How SQLite answers the last query the store sent. */
  const lastPlan = async () => {
    const query = ran.at(-1)!;
    const plan = await db.executeQuery(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]));
    return JSON.stringify(plan.rows);
  };

  assert.equal(await store.messages.textsTo('m_1', '+14155550123', '2026-11-01T00:00:00.000Z'), 0);
  assert.match(await lastPlan(), /USING (COVERING )?INDEX messages_texts_by_recipient/);
  assert.deepEqual(await store.events.holdingSecretsSince('2026-11-01T00:00:00.000Z', 5), []);
  assert.match(await lastPlan(), /USING (COVERING )?INDEX events_holding_secrets/);
  assert.equal((await store.transactions.capturesOf('m_1', ['txn_hold_1', 'txn_hold_2'])).size, 0);
  assert.match(await lastPlan(), /USING INDEX transactions_captures \(merchant_id=\? AND parent_id=\?\)/);
});
