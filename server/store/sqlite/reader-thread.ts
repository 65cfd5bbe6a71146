import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { SqliteDialect, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult } from 'kysely';

// Plain JavaScript, as the writer's thread. One statement at a time, in the order they came.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
// Below the event loop's thread when both want a core (Linux sets a thread's own nice value): a long read waits, not /health.
try { require('node:os').setPriority(10); } catch {}
const db = new Database(workerData.file);
for (const pragma of ['busy_timeout = 5000', 'query_only = ON']) db.pragma(pragma);
const statements = new Map();
parentPort.on('message', ({ id, sql, parameters }) => {
  let reply;
  try {
    if (statements.size >= 500 && !statements.has(sql)) statements.clear();
    const statement = statements.get(sql) ?? statements.set(sql, db.prepare(sql)).get(sql);
    reply = { id, rows: statement.all(parameters) };
  } catch (error) {
    reply = { id, error: { message: String(error?.message ?? error), code: error?.code } };
  }
  parentPort.postMessage(reply);
});
`;

type Reply = { id: number; rows?: unknown[]; error?: { message: string; code?: string } };

/**
 * Reads that could run long (long-reads.ts) on a thread of their own, with a read-only connection of their own: while
 * one runs, the event loop serves every other request. Started at the first such read; statements only, no transactions.
 */
export class ReaderThreadDialect extends SqliteDialect {
  private readonly file: string;

  constructor(file: string) {
    super({ database: undefined as never });
    this.file = file;
  }

  override createDriver(): Driver {
    return new ReaderThreadDriver(this.file);
  }
}

class ReaderThreadDriver implements Driver {
  private readonly file: string;
  private worker: Worker | undefined;
  private sent = 0;
  private ended = false;
  private readonly waiting = new Map<number, PromiseWithResolvers<QueryResult<unknown>>>();

  constructor(file: string) {
    this.file = file;
  }

  async init(): Promise<void> {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER, { eval: true, workerData: { file: this.file, driver } });
    worker.unref(); // held only while a read is under way
    worker.on('message', (reply: Reply) => {
      const read = this.waiting.get(reply.id);
      this.settled(reply.id);
      if (reply.error) read?.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
      else read?.resolve({ rows: reply.rows ?? [] });
    });
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', () => {
      this.ended = true;
      this.failAll(new Error('the SQLite reader thread ended'));
    });
    this.worker = worker;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return {
      executeQuery: <R>(query: CompiledQuery) => this.read(query) as Promise<QueryResult<R>>,
      streamQuery: () => {
        throw new Error('the SQLite reader thread does not stream rows');
      },
    };
  }

  async beginTransaction(): Promise<void> {
    throw new Error('the SQLite reader thread runs single reads, not transactions');
  }

  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    await this.worker?.terminate();
  }

  private read(query: CompiledQuery): Promise<QueryResult<unknown>> {
    if (this.ended) return Promise.reject(new Error('the SQLite reader thread ended'));
    const id = ++this.sent;
    const read = Promise.withResolvers<QueryResult<unknown>>();
    if (this.waiting.size === 0) this.worker!.ref();
    this.waiting.set(id, read);
    this.worker!.postMessage({ id, sql: query.sql, parameters: query.parameters });
    return read.promise;
  }

  private settled(id: number): void {
    this.waiting.delete(id);
    if (this.waiting.size === 0) this.worker?.unref();
  }

  private failAll(error: Error): void {
    for (const [id, read] of this.waiting) {
      this.settled(id);
      read.reject(error);
    }
  }
}
