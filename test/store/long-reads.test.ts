import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { Database } from '../../server/store/schema.ts';
import { postgresLongReads } from '../../server/store/long-reads.ts';
import { openPool } from '../../server/store/postgres-pool.ts';
import { isStorageUnavailable } from '../../server/store/unavailable.ts';
import { TEST_DATABASE_URL, testDatabases } from '../support/databases.ts';

/**
 * PostgreSQL: a long read stops at its kind's statement timeout (a listing's 2 s, an export page's 4 s), set in its own
 * read-only transaction over the service pool's 2.5 s and not on the pool, and the error it gets is one the edge
 * answers 503 with Retry-After.
 */
if (testDatabases().includes('postgres')) {
  describe('long reads on PostgreSQL: a statement timeout per kind', () => {
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: openPool(TEST_DATABASE_URL, {}) }) });
    const longReads = postgresLongReads(db);
    after(() => db.destroy());

    test("a listing's statement is stopped at 2 s and answered as a busy database; an export page's runs on past the pool's 2.5 s; the pool's keep theirs", async () => {
      const started = performance.now();
      const stopped = await longReads('listing', (reader) => sql`select pg_sleep(2.3)`.execute(reader)).then(
        () => undefined,
        (error: unknown) => error,
      );
      const ms = performance.now() - started;
      assert.equal((stopped as { code?: string } | undefined)?.code, '57014', String(stopped));
      assert.ok(isStorageUnavailable(stopped), 'the edge answers 503 with Retry-After');
      assert.ok(ms >= 1_900, `stopped after ${ms.toFixed(0)} ms, not at its limit`);
      await longReads('export', (reader) => sql`select pg_sleep(2.7)`.execute(reader));
      const timeout = async (reader: Kysely<Database> | Parameters<Parameters<typeof longReads>[1]>[0]) =>
        (await sql<{ statement_timeout: string }>`show statement_timeout`.execute(reader)).rows[0]?.statement_timeout;
      const pools = await timeout(db);
      assert.equal(pools, '2500ms', "the service's pool, whose bound the export's page outlasts");
      assert.deepEqual([await longReads('listing', timeout), await longReads('export', timeout)], ['2s', '4s']);
      assert.equal(await timeout(db), pools, "the pool's connections keep their own setting");
      const mode = await longReads('listing', (reader) =>
        sql<{ transaction_read_only: string }>`show transaction_read_only`.execute(reader),
      );
      assert.equal(mode.rows[0]?.transaction_read_only, 'on');
    });
  });
}
