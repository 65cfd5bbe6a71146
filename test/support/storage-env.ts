import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { TEST_DATABASE_URL, type TestDatabase } from './databases.ts';

/** The environment that points a service process at a fresh database of the kind asked for, and its clean-up. */
export async function storageEnv(
  database: TestDatabase,
): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  if (database === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'paykit-restart-'));
    return { env: { PAYKIT_DATA_DIR: dir }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  // Dropped by `npm test` after the run (see databases.ts), not here.
  return { env: { DATABASE_URL: url.toString() }, cleanup: async () => {} };
}
