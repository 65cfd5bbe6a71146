/**
 * A busy event loop must not hand a request a connection PostgreSQL already ended for idling: its notice sits unread
 * and the pool's idle timer runs late, so the first statement would fail (seen as a 503 under load).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPool, POSTGRES_TIMEOUTS } from '../../server/store/postgres-pool.ts';
import { TEST_DATABASE_URL, testDatabases } from '../support/databases.ts';

/** The whole thread stops, as a loop busy with other work would: no timer runs, no socket is read. */
const stall = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

test(
  'a connection idle past PostgreSQL idle_session_timeout is not handed out after the loop stalled',
  { skip: !testDatabases().includes('postgres') && 'PostgreSQL not selected' },
  async (t) => {
    const pool = openPool(TEST_DATABASE_URL, {});
    t.after(() => pool.end());
    const first = await pool.connect();
    const {
      rows: [before],
    } = await first.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    first.release();

    stall(POSTGRES_TIMEOUTS.idleMs + 1000);
    const client = await pool.connect();
    try {
      const {
        rows: [after],
      } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      assert.notEqual(after!.pid, before!.pid, 'a new session, not the one PostgreSQL ended');
    } finally {
      client.release();
    }
    const { rows } = await pool.query<{ one: number }>('SELECT 1 AS one');
    assert.equal(rows[0]!.one, 1, "pg's callback form of connect, used by pool.query, still works");
  },
);
