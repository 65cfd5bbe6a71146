import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { QueryResult } from 'kysely';

// Plain JavaScript, so that it runs the same from the sources and compiled. The thread sleeps on slot 1 of the flag until the
// main thread has posted a statement, answers it, raises slot 0 and wakes the main thread, which takes the answer off
// its port. Waiting on the flag rather than on the port's events makes a round trip about half as long.
const WORKER = `
const { receiveMessageOnPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const { port, flag, file, synchronous } = workerData;
let db;
let open = true;
const statements = new Map();
function run({ before, sql, parameters }) {
  for (const ahead of before) run({ before: [], sql: ahead, parameters: [] });
  if (sql === 'OPEN') {
    db = new Database(file);
    // temp_store: each unit's savepoint journal stays in memory, not in a temporary file written page by page.
    for (const pragma of ['journal_mode = WAL', 'synchronous = ' + synchronous, 'foreign_keys = ON', 'busy_timeout = 5000', 'temp_store = MEMORY']) db.pragma(pragma);
    return {};
  }
  if (sql === 'CLOSE') return (open = false), db?.close(), {};
  if (statements.size >= 500 && !statements.has(sql)) statements.clear();
  const statement = statements.get(sql) ?? statements.set(sql, db.prepare(sql)).get(sql);
  if (statement.reader) return { rows: statement.all(parameters) };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { changes, lastInsertRowid };
}
while (open) {
  Atomics.wait(flag, 1, 0);
  Atomics.store(flag, 1, 0);
  for (let received = receiveMessageOnPort(port); received; received = receiveMessageOnPort(port)) {
    let reply;
    try { reply = run(received.message); } catch (error) { reply = { error: { message: String(error?.message ?? error), code: error?.code } }; }
    port.postMessage({ ...reply, id: received.message.id, inTransaction: db?.open ? db.inTransaction : false });
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  }
}
port.close();
`;

type Reply = { id: number; inTransaction: boolean; rows?: unknown[]; changes?: number; lastInsertRowid?: number | bigint; error?: { message: string; code?: string } };

const NO_ANSWER_MS = 30_000; // longer than a statement may wait for another process's lock (busy_timeout)

/**
 * The one connection that writes, on a thread of its own: with synchronous=FULL, SQLite syncs the WAL inside
 * COMMIT, and that wait happens here, never on the event loop. A statement is a synchronous call (the event loop
 * waits the few microseconds it takes); a COMMIT is awaited, so requests go on being served while the disk syncs.
 */
export class WriterThread {
  /** Whether a transaction is open on the connection, as of the last reply. */
  inTransaction = false;
  private readonly worker: Worker;
  private readonly port: MessagePort;
  /** Slot 0: the answer is there; slot 1: a statement is. */
  private readonly flag = new Int32Array(new SharedArrayBuffer(8));
  private sent = 0;
  private awaiting = false;
  /** Statements without parameters that go with the next one, a round trip saved; if one fails, it fails with its error. */
  readonly ahead: string[] = [];

  constructor(file: string, synchronous: 'FULL' | 'OFF') {
    const { port1, port2 } = new MessageChannel();
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER, { eval: true, workerData: { port: port2, flag: this.flag, file, synchronous, driver }, transferList: [port2] });
    this.worker.unref();
    this.port = port1;
    this.run('OPEN');
  }

  /** Runs one statement, after those `ahead`, and answers what it did, as Kysely expects it. */
  run<R>(sql: string, parameters: readonly unknown[] = []): QueryResult<R> {
    this.send(sql, parameters);
    // The thread raises the flag, then wakes us: a wake-up meant for the statement before can come in between.
    while (Atomics.load(this.flag, 0) === 0) {
      if (Atomics.wait(this.flag, 0, 0, NO_ANSWER_MS) === 'timed-out') throw new Error('the SQLite writer thread did not answer');
    }
    return this.receive<R>();
  }

  /** `run`, letting the event loop go on while the statement runs (a COMMIT, which waits for the disk). */
  async runAsync<R>(sql: string): Promise<QueryResult<R>> {
    this.send(sql, []);
    // The process stays up until the commit's outcome is known.
    this.worker.ref();
    this.awaiting = true;
    // waitAsync never rejects (no try/finally needed): it resolves once the thread has raised the flag.
    for (let waited = Atomics.waitAsync(this.flag, 0, 0); waited.async; waited = Atomics.waitAsync(this.flag, 0, 0)) await waited.value;
    this.awaiting = false;
    this.worker.unref();
    return this.receive<R>();
  }

  async close(): Promise<void> {
    await this.runAsync('CLOSE').catch(() => {});
    await this.worker.terminate();
  }

  private send(sql: string, parameters: readonly unknown[]): void {
    if (this.awaiting) throw new Error(`a statement was sent to the SQLite writer while it was busy: ${sql}`);
    Atomics.store(this.flag, 0, 0);
    this.port.postMessage({ id: ++this.sent, before: this.ahead, sql, parameters });
    this.ahead.length = 0;
    Atomics.store(this.flag, 1, 1);
    Atomics.notify(this.flag, 1);
  }

  private receive<R>(): QueryResult<R> {
    const reply = receiveMessageOnPort(this.port)?.message as Reply | undefined;
    if (reply?.id !== this.sent) throw new Error(`the SQLite writer thread's answer to statement ${this.sent} is missing`);
    this.inTransaction = reply.inTransaction;
    if (reply.error) throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
    if (reply.rows) return { rows: reply.rows as R[] };
    return { rows: [], numAffectedRows: BigInt(reply.changes ?? 0), insertId: BigInt(reply.lastInsertRowid ?? 0) };
  }
}
