import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { startService, type TestService } from '../../support/service.ts';
import { testDatabases } from '../../support/databases.ts';
import { validApplication } from '../../support/fixtures.ts';
import type { Executor } from '../../../server/store/schema.ts';
import { POSTGRES_TIMEOUTS } from '../../../server/store/postgres-pool.ts';

const executorOf = (service: TestService) => (service.store as unknown as { db: Executor }).db;

/** A keyed onboarding: the write the tests make fail, then retry with the same key. */
const onboard = (service: TestService, key: string) =>
  service.api('POST', '/onboarding', { json: validApplication(), headers: { 'idempotency-key': key } });

function assertUnavailable(answer: { status: number; body: any; headers: Record<string, unknown> }) {
  assert.equal(answer.status, 503, JSON.stringify(answer.body));
  assert.deepEqual([answer.body.result, answer.body.code], [false, 'service_error']);
  assert.ok(Number(answer.headers['retry-after']) > 0, 'says when to retry');
}

describe('after a storage failure, a retry with the same Idempotency-Key runs at once', () => {
  test(
    'PostgreSQL refusing writes (disk full), releases included: 503, then the retry succeeds, not 409',
    { skip: !testDatabases().includes('postgres') && 'PostgreSQL not selected' },
    async (t) => {
      const service = await startService({ database: 'postgres' });
      t.after(() => service.close());
      const db = executorOf(service);
      // What PostgreSQL answers when its disk is full (53100), for the onboarding's write and for the key's release.
      await sql`CREATE FUNCTION disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = '53100'; END $$`.execute(
        db,
      );
      await sql`CREATE TRIGGER full_merchants BEFORE INSERT ON merchants FOR EACH ROW EXECUTE FUNCTION disk_full()`.execute(
        db,
      );
      await sql`CREATE TRIGGER full_keys BEFORE DELETE ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION disk_full()`.execute(
        db,
      );

      for (let attempt = 0; attempt < 3; attempt++) assertUnavailable(await onboard(service, 'after-full-disk'));

      await sql`DROP TRIGGER full_merchants ON merchants`.execute(db);
      await sql`DROP TRIGGER full_keys ON idempotency_keys`.execute(db);
      const retry = await onboard(service, 'after-full-disk');
      assert.equal(retry.status, 200, JSON.stringify(retry.body));
      const replay = await onboard(service, 'after-full-disk');
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.body.data.merchant_id, retry.body.data.merchant_id);
    },
  );

  test(
    'PostgreSQL cancelling a statement at its timeout: 503, not 500, then the retry succeeds',
    { skip: !testDatabases().includes('postgres') && 'PostgreSQL not selected' },
    async (t) => {
      const service = await startService({ database: 'postgres' });
      t.after(() => service.close());
      const db = executorOf(service);
      // A write slower than the pool's statement timeout (server/store/postgres-pool.ts): PostgreSQL cancels it (57014).
      await sql`CREATE FUNCTION slow_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(${sql.lit(POSTGRES_TIMEOUTS.statementMs / 1000 + 0.5)}); RETURN NEW; END $$`.execute(
        db,
      );
      await sql`CREATE TRIGGER slow_merchants BEFORE INSERT ON merchants FOR EACH ROW EXECUTE FUNCTION slow_write()`.execute(
        db,
      );
      assertUnavailable(await onboard(service, 'after-timeout'));
      await sql`DROP TRIGGER slow_merchants ON merchants`.execute(db);
      const retry = await onboard(service, 'after-timeout');
      assert.equal(retry.status, 200, retry.text);
      assert.equal(retry.headers['idempotent-replayed'], undefined, 'it runs: the cancelled one left nothing');
    },
  );

  test(
    'SQLite on a full disk (a small tmpfs): 503, then once there is room the retry succeeds, not 409',
    { skip: !testDatabases().includes('sqlite') && 'SQLite not selected' },
    async (t) => {
      const mountPoint = mkdtempSync(join(tmpdir(), 'paykit-full-disk-'));
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', mountPoint], { stdio: 'ignore' });
      } catch {
        rmSync(mountPoint, { recursive: true, force: true });
        return t.skip('mounting a tmpfs needs root');
      }
      t.after(() => {
        execFileSync('umount', ['-l', mountPoint]);
        rmSync(mountPoint, { recursive: true, force: true });
      });
      const service = await startService({ dataDir: join(mountPoint, 'data') });
      t.after(() => service.close());
      assert.equal((await onboard(service, 'before-full-disk')).status, 200);

      // Fill what is left of the disk, a megabyte at a time, until it refuses.
      const filler = join(mountPoint, 'filler');
      const megabyte = Buffer.alloc(1024 * 1024, 1);
      let parts = 0;
      try {
        for (; parts < 64; parts++) writeFileSync(`${filler}-${parts}`, megabyte);
      } catch {
        // ENOSPC: the disk is full, the last part partly written.
      }
      for (let i = 0; i < 128; i++) {
        try {
          writeFileSync(`${filler}-small-${i}`, Buffer.alloc(4096));
        } catch {
          break;
        }
      }
      // Writes go on into room SQLite had already taken (its WAL), until they need more.
      let refused: string | undefined;
      for (let i = 0; i < 500 && !refused; i++) {
        const answer = await onboard(service, `full-disk-${i}`);
        if (answer.status !== 200) {
          assertUnavailable(answer);
          refused = `full-disk-${i}`;
        }
      }
      assert.ok(refused, 'a write met the full disk');
      const again = await onboard(service, refused);
      assertUnavailable(again);

      for (let i = 0; i <= parts; i++) rmSync(`${filler}-${i}`, { force: true });
      const retry = await onboard(service, refused);
      assert.equal(retry.status, 200, JSON.stringify(retry.body));
      assert.equal((await service.request('GET', '/health')).status, 200);
    },
  );
});
