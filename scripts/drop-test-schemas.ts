import pg from 'pg';
import { TEST_DATABASE_URL, TEST_SCHEMA } from '../test/support/databases.ts';

/**
 * Drops the PostgreSQL schemas the tests made (`t_…`); quietly does nothing when PostgreSQL is not there. A schema
 * another run on the same server dropped meanwhile is no error.
 */
export async function dropTestSchemas(): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
  } catch {
    return;
  }
  try {
    const { rows } = await client.query<{ name: string }>(
      "select nspname as name from pg_namespace where nspname like 't\\_%'",
    );
    for (const { name } of rows)
      if (TEST_SCHEMA.test(name)) await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
  } finally {
    await client.end();
  }
}
