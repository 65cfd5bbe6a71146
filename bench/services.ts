import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startServiceProcess, type ServiceProcess } from '../test/support/process.ts';

export interface BenchService {
  database: 'SQLite' | 'PostgreSQL';
  process: ServiceProcess;
  /** PostgreSQL: the service's database URL, its schema in the search path (for the bench to write beside it). */
  databaseUrl?: string;
  stop: () => Promise<void>;
}

/** The service on the embedded database in `dataDir`, as `npm run server` runs it (from the checkout in `cwd`, when given). */
export async function serviceOnSqlite(
  dataDir: string,
  env: Record<string, string>,
  cwd?: string,
): Promise<BenchService> {
  // Empty, not inherited: the bench's own DATABASE_URL is for the PostgreSQL service.
  const service = await startServiceProcess(
    { PAYKIT_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', ...env },
    cwd,
  );
  return { database: 'SQLite', process: service, stop: async () => void (await service.stop()) };
}

/** The service on PostgreSQL at `databaseUrl`, in a schema of its own that is dropped afterwards. */
export async function serviceOnPostgres(
  databaseUrl: string,
  env: Record<string, string>,
  cwd?: string,
): Promise<BenchService> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE SCHEMA ${schema}`);
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const service = await startServiceProcess({ DATABASE_URL: url.toString(), LOG_LEVEL: 'warn', ...env }, cwd);
  return {
    database: 'PostgreSQL',
    process: service,
    databaseUrl: url.toString(),
    stop: async () => {
      await service.stop();
      await admin(`DROP SCHEMA ${schema} CASCADE`);
    },
  };
}
