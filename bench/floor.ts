import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { buildApp } from '../server/app.ts';
import { Clock } from '../server/clock.ts';
import type { Config } from '../server/config.ts';
import { ensureClient } from '../server/services/clients.ts';
import { openStore } from '../server/store/open.ts';
import { runStatement } from '../server/store/sqlite/run-statement.ts';
import { StatementCache } from '../server/store/sqlite/statement-cache.ts';
import type { Api, Scenario } from './scenarios.ts';
import { basicAuthorization } from './credentials.ts';

/** A statement the service ran on its writing connection, with its parameters. */
interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

/** Requests replayed per write. */
const REQUESTS = 2000;

export interface Floor {
  /** Microseconds per request: its statements in a transaction of their own, and in groups of `groupSize`. */
  oneEachUs: number;
  groupedUs: number;
  groupSize: number;
}

/**
 * The floor of each write: what SQLite alone takes for it. Each write scenario runs in this process, through the
 * real app, with every statement it sends recorded; the recording is then replayed through better-sqlite3 alone,
 * on a copy of the database as it was before, with the service's settings (WAL, synchronous=FULL): one transaction
 * per request, and `groupSize` requests per transaction with one savepoint at its start, as the service groups them.
 */
export async function measureFloors(all: Scenario[], groupSizes: Map<string, number>, credentials: { id: string; secret: string }): Promise<Map<string, Floor>> {
  const dir = mkdtempSync(join(tmpdir(), 'paykit-floor-'));
  try {
    let recording: Statement[] | undefined;
    const traceWrites = (sql: string, parameters: readonly unknown[]) => recording?.push({ sql, parameters });
    const store = await openStore({ dataDir: dir, sqlite: { maxWaitMs: 0, traceWrites } });
    const config: Config = {
      port: 0, host: '127.0.0.1', environment: 'sandbox', databaseUrl: undefined, dataDir: dir, publicUrl: 'http://127.0.0.1',
      seedClient: undefined, webhooks: { timeoutMs: 2000, scheduleSeconds: [1], pollMs: 1000, dispatch: false },
    };
    const clock = new Clock();
    await ensureClient(store, credentials.id, credentials.secret, clock.now());
    const app = await buildApp({ store, clock, config });
    const authorization = basicAuthorization(credentials);
    const inject = async (method: 'GET' | 'POST', path: string, payload?: string, keyed = false) => {
      const headers = { authorization, 'content-type': 'application/json', ...(keyed ? { 'idempotency-key': randomUUID() } : {}) };
      const answer = await app.inject({ method, url: path, headers, ...(payload === undefined ? {} : { payload }) });
      return { status: answer.statusCode, body: answer.json() };
    };
    const api: Api = (method, path, json) => inject(method, `/api/v1${path}`, json === undefined ? undefined : JSON.stringify(json));

    const floors = new Map<string, Floor>();
    try {
      for (const scenario of all) {
        const load = await scenario.prepare(api);
        if (!scenario.writes) continue;
        const copies = [join(dir, 'one-each.sqlite'), join(dir, 'grouped.sqlite')];
        const snapshot = new SQLite(join(dir, 'paykit.sqlite'), { readonly: true });
        for (const copy of copies) {
          rmSync(copy, { force: true });
          snapshot.exec(`VACUUM INTO '${copy}'`);
        }
        snapshot.close();

        const requests: Statement[][] = [];
        for (let i = 0; i < REQUESTS; i++) {
          recording = [];
          const answer = await inject(load.method, load.path, load.body?.(), load.keyed);
          if (answer.status !== 200) throw new Error(`floor: ${scenario.name} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
          requests.push(recording);
        }
        recording = undefined;
        const groupSize = Math.max(1, Math.round(groupSizes.get(scenario.name) ?? 16));
        floors.set(scenario.name, { oneEachUs: replay(copies[0]!, requests, 1), groupedUs: replay(copies[1]!, requests, groupSize), groupSize });
      }
    } finally {
      await app.close();
      await store.close();
    }
    return floors;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Replays recorded requests on `file`, `groupSize` to a transaction; microseconds per request. */
function replay(file: string, requests: Statement[][], groupSize: number): number {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  const statements = new StatementCache(db);
  const started = performance.now();
  for (let i = 0; i < requests.length; i += groupSize) {
    db.exec('BEGIN IMMEDIATE');
    if (groupSize > 1) db.exec('SAVEPOINT group_start');
    for (const request of requests.slice(i, i + groupSize)) {
      for (const query of request) runStatement(statements.prepare(query.sql), query.parameters);
    }
    db.exec('COMMIT');
  }
  const perRequest = ((performance.now() - started) * 1000) / requests.length;
  statements.close();
  return perRequest;
}
