import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { SqliteDialect, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult } from 'kysely';

// Plain JavaScript, as the writer's thread. One statement at a time, in the order they came.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
// Below the event loop's thread when both want a core (Linux sets a thread's own nice value): a long read waits, not /health.
try { require('node:os').setPriority(10); } catch {}
const db = new (require(workerData.driver))(workerData.file);
for (const pragma of ['busy_timeout = 5000', 'query_only = ON']) db.pragma(pragma);
const statements = new Map();
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    if (statements.size >= 500 && !statements.has(sql)) statements.clear();
    const statement = statements.get(sql) ?? statements.set(sql, db.prepare(sql)).get(sql);
    parentPort.postMessage({ id, rows: statement.all(parameters) });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: String(error?.message ?? error), code: error?.code } });
  }
});
`;

type Reply = { id: number; rows?: unknown[]; error?: { message: string; code?: string } };

/**
 * Reads that could run long (long-reads.ts) on a thread of their own, with a read-only connection of their own: while
 * one runs, the event loop serves every other request. The thread starts at the first such read; it runs statements,
 * not transactions.
 */
export class ReaderThreadDialect extends SqliteDialect {
  private readonly file: string;

  constructor(file: string) {
    super({ database: undefined as never });
    this.file = file;
  }

  override createDriver(): Driver {
    const file = this.file;
    let worker: Worker;
    let sent = 0;
    let ended: Error | undefined;
    const waiting = new Map<number, PromiseWithResolvers<QueryResult<unknown>>>();
    const settle = (id: number) => {
      const read = waiting.get(id);
      waiting.delete(id);
      if (waiting.size === 0) worker.unref(); // held only while a read is under way
      return read;
    };
    const read = (query: CompiledQuery): Promise<QueryResult<unknown>> => {
      if (ended) return Promise.reject(ended);
      const id = ++sent;
      if (waiting.size === 0) worker.ref();
      waiting.set(id, Promise.withResolvers());
      worker.postMessage({ id, sql: query.sql, parameters: query.parameters });
      return waiting.get(id)!.promise;
    };
    const connection: DatabaseConnection = {
      executeQuery: <R>(query: CompiledQuery) => read(query) as Promise<QueryResult<R>>,
      streamQuery: () => {
        throw new Error('the SQLite reader thread does not stream rows');
      },
    };
    return {
      async init() {
        worker = new Worker(WORKER, { eval: true, workerData: { file, driver: createRequire(import.meta.url).resolve('better-sqlite3') } });
        worker.unref();
        worker.on('message', ({ id, rows, error }: Reply) => {
          if (error) settle(id)?.reject(Object.assign(new Error(error.message), { code: error.code }));
          else settle(id)?.resolve({ rows: rows ?? [] });
        });
        worker.on('error', (error) => (ended = error));
        worker.on('exit', () => {
          ended ??= new Error('the SQLite reader thread ended');
          for (const id of [...waiting.keys()]) settle(id)?.reject(ended);
        });
      },
      acquireConnection: async () => connection,
      beginTransaction: async () => {
        throw new Error('the SQLite reader thread runs single reads, not transactions');
      },
      commitTransaction: async () => {},
      rollbackTransaction: async () => {},
      releaseConnection: async () => {},
      destroy: async () => void (await worker?.terminate()),
    };
  }
}
