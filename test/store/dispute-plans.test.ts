import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';
import { openStore } from '../../server/store/open.ts';
import type { Store } from '../../server/store/store.ts';
import { DISPUTE_REASONS, DISPUTE_STATUSES } from '../../server/domain/disputes.ts';

/**
 * GET /disputes reads through an index that matches its filter and its order (migration 023), as every listing does
 * (test/store/listing-plans.test.ts): for each filter, first page and by cursor, SQLite scans no table whole and sorts
 * nothing; the sandbox's open disputes by their own partial index.
 */
const MERCHANTS = 20;
const EACH = 300;

let dir: string;
let store: Store;
let explainer: SQLite.Database;
const ran: CompiledQuery[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paykit-dispute-plans-'));
  store = await openStore({ dataDir: dir, log: (event: { query: CompiledQuery }) => void ran.push(event.query) });
  const seeder = new SQLite(join(dir, 'paykit.sqlite'));
  const insert = seeder.prepare(
    `INSERT INTO "disputes" ("id", "client_id", "merchant_id", "transaction_id", "amount", "reason", "status",
      "funds_withdrawn", "evidence_due_by", "evidence", "file_count", "history", "created_at", "updated_at")
     VALUES (?, 'cl_1', ?, ?, 1000, ?, ?, 1, ?, '{}', 0, '[]', ?, ?)`,
  );
  seeder.transaction(() => {
    for (let m = 0; m < MERCHANTS; m++)
      for (let i = 0; i < EACH; i++) {
        const at = new Date(Date.UTC(2026, 0, 1) + (m * EACH + i) * 60_000).toISOString();
        insert.run(
          `dp_${m}_${i}`,
          `m_${m}`,
          `txn_${m}_${i}`,
          DISPUTE_REASONS[i % DISPUTE_REASONS.length],
          DISPUTE_STATUSES[i % DISPUTE_STATUSES.length],
          at,
          at,
          at,
        );
      }
  })();
  seeder.exec('ANALYZE');
  seeder.close();
  explainer = new SQLite(join(dir, 'paykit.sqlite'), { readonly: true });
});
after(async () => {
  explainer.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const problemsOf = (query: CompiledQuery) =>
  (
    explainer.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...(query.parameters as unknown[])) as {
      detail: string;
    }[]
  )
    .map((row) => row.detail)
    // The open disputes are the partial index whole: reading all of it is the query.
    .filter((detail) => /^SCAN disputes(?! USING INDEX disputes_open$)/.test(detail) || /TEMP B-TREE/.test(detail));

test('every filter of GET /disputes, first page and by cursor, reads an index range in order', async () => {
  const filters = [
    {},
    { status: 'lost' as const },
    { reason: 'fraudulent' as const },
    { status: 'won' as const, reason: 'general' as const },
  ];
  for (const filter of filters) {
    ran.length = 0;
    const first = await store.disputes.page('m_7', filter, 20, { offset: 0 });
    assert.ok(first.items.length > 0, JSON.stringify(filter));
    if (first.last) await store.disputes.page('m_7', filter, 20, { after: first.last });
    const listings = ran.filter((q) => /from "disputes"/.test(q.sql) && /order by/.test(q.sql));
    assert.ok(listings.length > 0);
    for (const query of listings) assert.deepEqual(problemsOf(query), [], `${JSON.stringify(filter)}: ${query.sql}`);
  }
  ran.length = 0;
  await store.disputes.open();
  for (const query of ran.filter((q) => /from "disputes"/.test(q.sql)))
    assert.deepEqual(problemsOf(query), [], query.sql);
});
