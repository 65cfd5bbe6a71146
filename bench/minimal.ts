import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { freePort, untilAnswering } from '../test/support/process.ts';

export const MINIMAL_PATH = '/api/v1/customers/add';

/**
 * Starts bench/minimal-write-server.ts, the least this stack does for POST /customers/add, in a process of its own on
 * a copy (in `dir`) of the database file `databaseFile`, so the merchant keys the service handed out find their
 * merchants. `baseUrl` + MINIMAL_PATH takes the same body as the service.
 */
export async function startMinimalWriteServer(databaseFile: string, dir: string): Promise<{ baseUrl: string; pid: number; stop: () => void }> {
  mkdirSync(dir, { recursive: true });
  const source = new SQLite(databaseFile, { readonly: true });
  try {
    source.exec(`VACUUM INTO '${join(dir, 'paykit.sqlite')}'`);
  } finally {
    source.close();
  }
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/minimal-write-server.ts'], {
    env: { ...process.env, PAYKIT_DATA_DIR: dir, PORT: String(port) },
    stdio: 'ignore',
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await untilAnswering(`${baseUrl}${MINIMAL_PATH}`, child);
  return { baseUrl, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}
