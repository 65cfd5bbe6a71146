import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';
import { openStore } from '../../server/store/open.ts';

/**
 * The partial indexes (migrations 009 and 010) must serve the queries they were made for: these run the store's own
 * queries, as it sends them, and ask SQLite how it answers each. Each says the index's condition as a literal: with a
 * parameter SQLite still finds the index, but prepares the statement again at every call to check that it may
 * (7.7 against 1.6 µs for the captures' query), so the SQL sent is held to the literal too.
 */
test("the store's queries that have partial indexes of their own are answered through them", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'paykit-plans-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const ran: CompiledQuery[] = [];
  const store = await openStore({ dataDir: dir, log: (event) => void ran.push(event.query) });
  t.after(() => store.close());
  // Plans asked on a connection of the test's own, to the same file and schema.
  const explainer = new SQLite(join(dir, 'paykit.sqlite'), { readonly: true });
  t.after(() => explainer.close());
  /** The last query the store sent, and how SQLite answers it. */
  const last = () => {
    const query = ran.at(-1)!;
    const plan = explainer.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.parameters);
    return { sql: query.sql, plan: JSON.stringify(plan) };
  };

  assert.equal(await store.messages.textsTo('m_1', '+14155550123', '2026-11-01T00:00:00.000Z'), 0);
  let sent = last();
  assert.match(sent.plan, /USING (COVERING )?INDEX messages_texts_by_recipient/);
  assert.match(sent.sql, /"channel" = 'sms'/);

  for (const [channel, index] of [
    ['sms', 'messages_texts_by_recipient'],
    ['email', 'messages_emails_by_recipient'],
  ] as const) {
    assert.deepEqual(await store.messages.sentTo('m_1', channel, 'a@example.com', '2026-11-01T00:00:00.000Z', 5), []);
    sent = last();
    assert.match(sent.plan, new RegExp(`USING (COVERING )?INDEX ${index}`));
    assert.match(sent.sql, new RegExp(`"channel" = '${channel}'`));
  }

  assert.deepEqual(await store.events.holdingSecretsSince('2026-11-01T00:00:00.000Z', 5), []);
  sent = last();
  assert.match(sent.plan, /USING (COVERING )?INDEX events_holding_secrets/);
  assert.match(sent.sql, /"holds_secret" = 1/);

  assert.equal((await store.transactions.capturesOf('m_1', ['txn_hold_1', 'txn_hold_2'])).size, 0);
  sent = last();
  assert.match(sent.plan, /USING INDEX transactions_captures \(merchant_id=\? AND parent_id=\?\)/);
  assert.match(sent.sql, /"kind" = 'sale'/);

  // A listener's read walks the primary key from its cursor, never a client's whole history by its index.
  assert.deepEqual((await store.events.listenFrom('cl_1', { txid: '0', seq: 0 }, 100)).events, []);
  sent = last();
  assert.match(sent.plan, /SEARCH events USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/);
});
