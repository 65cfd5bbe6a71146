import { randomBytes } from 'node:crypto';
import { openStore, type StatementCounter } from '../../server/store/open.ts';
import type { Store } from '../../server/store/store.ts';

export type TestDatabase = 'sqlite' | 'postgres';

/** Where the PostgreSQL tests run; `.ci/run` creates this role and database. */
export const TEST_DATABASE_URL =
  process.env.PAYKIT_TEST_DATABASE_URL ?? 'postgres://paykit:paykit@127.0.0.1:5432/paykit_test';

/**
 * The databases a storage test runs on: both, unless PAYKIT_TEST_DATABASES narrows it (e.g. "sqlite"
 * on a machine without PostgreSQL). CI always runs both.
 */
export function testDatabases(): TestDatabase[] {
  const chosen = (process.env.PAYKIT_TEST_DATABASES ?? 'sqlite,postgres').split(',').map((s) => s.trim());
  return (['sqlite', 'postgres'] as const).filter((d) => chosen.includes(d));
}

/**
 * A fresh, empty store: SQLite in memory, or a PostgreSQL schema of its own (`t_…`). `dataDir` keeps the SQLite
 * database in a folder instead, which a test may open beside the store. `statements` counts PostgreSQL's round trips.
 */
export async function openTestStore(
  database: TestDatabase,
  dataDir = 'memory',
  statements?: StatementCounter,
): Promise<{ store: Store; close: () => Promise<void>; schema?: string }> {
  if (database === 'sqlite') {
    const store = await openStore({ dataDir });
    return { store, close: () => store.close() };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let store: Store;
  try {
    store = await openStore({ dataDir: 'memory', databaseUrl: TEST_DATABASE_URL, pgSchema: schema, statements });
  } catch (error) {
    throw new Error(
      `Could not open a PostgreSQL store at ${TEST_DATABASE_URL} (${String(error)}). Is the server running? (bash .ci/run starts it) Or ` +
        'set PAYKIT_TEST_DATABASE_URL, or run only SQLite with PAYKIT_TEST_DATABASES=sqlite.',
    );
  }
  // The schema is not dropped here: Kysely's migrator reads every schema's tables, and a drop during another
  // test file's migration fails it. `npm test` drops all test schemas before and after the run instead.
  return { store, close: () => store.close(), schema };
}

/** Test schemas are named `t_` and 12 hex digits. */
export const TEST_SCHEMA = /^t_[0-9a-f]{12}$/;
