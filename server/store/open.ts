import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, sql, type KyselyConfig } from 'kysely';
import type { Database, Dialect } from './schema.ts';
import { migrationProvider } from './migrations/index.ts';
import { openSqlite } from './sqlite/open-sqlite.ts';
import { Store } from './store.ts';
import { postgresLongReads, sqliteLongReads } from './long-reads.ts';
import { openPool, type StatementCounter } from './postgres-pool.ts';

export { StatementCounter } from './postgres-pool.ts';

export interface StorageOptions {
  /** `postgres://…` uses PostgreSQL; unset uses the embedded SQLite database. */
  databaseUrl?: string | undefined;
  /** Folder of the embedded database; `memory` keeps nothing. */
  dataDir: string;
  /** PostgreSQL schema to work in (created when missing); tests use one each. */
  pgSchema?: string | undefined;
  /** Kysely's query log: tests that look at the SQL the store sends read it here. */
  log?: KyselyConfig['log'];
  /**
   * Told when PostgreSQL ends a connection the pool holds (a restart, a failover, an idle cut). The pool drops that
   * connection and opens another when next needed; without a listener, Node would end the process.
   */
  onConnectionError?: ((error: Error) => void) | undefined;
  /** PostgreSQL: counts every statement sent to the server, BEGIN and COMMIT included (tests and the bench read it). */
  statements?: StatementCounter | undefined;
}

// COUNT(*) and bigserial come back from pg as text; every integer we store fits in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** Opens the database, applies pending migrations and returns the store. */
export async function openStore(options: StorageOptions): Promise<Store> {
  if (options.databaseUrl) {
    await ensureSchema(options.databaseUrl, options.pgSchema);
    // Migrations run on a connection of their own, without the bounds a request's statements have.
    const migrating = postgres(openPool(options.databaseUrl, { schema: options.pgSchema, unbounded: true }));
    try {
      await migrate(migrating, 'postgres');
    } finally {
      await migrating.destroy();
    }
    const db = postgres(
      openPool(options.databaseUrl, {
        schema: options.pgSchema,
        onConnectionError: options.onConnectionError,
        statements: options.statements,
      }),
      options.log,
    );
    return new Store(db, { dialect: 'postgres', onClose: () => db.destroy(), longReads: postgresLongReads(db) });
  }
  const sqlite = await openSqlite(options.dataDir);
  const db = new Kysely<Database>({ dialect: sqlite.dialect, ...(options.log ? { log: options.log } : {}) });
  try {
    await migrate(db, 'sqlite');
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const readerThread = new Kysely<Database>({
    dialect: sqlite.readerThread,
    ...(options.log ? { log: options.log } : {}),
  });
  const onClose = async () => {
    await readerThread.destroy();
    await db.destroy();
  };
  return new Store(db, {
    dialect: 'sqlite',
    onClose,
    committedVersion: sqlite.committedVersion,
    runSteps: (steps) => sqlite.groups.unit(steps),
    longReads: sqliteLongReads(readerThread),
  });
}

const postgres = (pool: pg.Pool, log?: KyselyConfig['log']) =>
  new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...(log ? { log } : {}) });

/** Creates the PostgreSQL schema tests work in, when it is missing. */
async function ensureSchema(connectionString: string, schema: string | undefined): Promise<void> {
  if (!schema) return;
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid PostgreSQL schema name: ${schema}`);
  const setup = new pg.Client({ connectionString });
  await setup.connect();
  try {
    await setup.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  } finally {
    await setup.end();
  }
}

async function migrate(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  // Kysely looks for its migration tables in every schema unless told which: pin it to ours, or a
  // second Paykit schema on the same server would make it skip creating its own.
  const migrationTableSchema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db,
    provider: migrationProvider(dialect),
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

/** Drops a PostgreSQL schema made by `openStore({ pgSchema })`; for tests. */
export async function dropPostgresSchema(connectionString: string, schema: string): Promise<void> {
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString, max: 1 }) }) });
  try {
    await sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).execute(db);
  } finally {
    await db.destroy();
  }
}
