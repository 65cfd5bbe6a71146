import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import Database, { type Statement } from 'better-sqlite3';

/** A statement as Kysely compiled it; in a unit, a guard must change a row, or the unit is undone and reported lost. */
export interface Step {
  sql: string;
  parameters: readonly unknown[];
  guard?: boolean;
}
/** What the main thread asks of the writer, in order, in one message. */
export type Op =
  | { op: 'unit'; steps: Step[] } // all its steps in a savepoint of their own, or none of them
  | { op: 'begin' } // the savepoint of a unit whose statements come one by one (a Kysely transaction)…
  | ({ op: 'run' } & Step) // …one of them…
  | { op: 'end'; keep: boolean } // …and its end: RELEASE, or ROLLBACK TO and RELEASE
  | { op: 'commit' }
  | { op: 'close' };
export type Result = { rows: unknown[] } | { changes: number; lastInsertRowid: number | bigint };
export type Failure = { error: { message: string; code?: string } };
/** Each op's outcome: its statements' results, the guard step that found nothing to change, or its error. */
export type Done = { results: Result[] } | { lost: number } | Failure;
export type Reply = { done: Done[]; inTransaction: boolean };
/** `readOnly`: the reader thread of long reads (open-sqlite.ts); its units are plain statements, in no transaction. */
export type WriterData = { file: string; synchronous: 'FULL' | 'OFF'; readOnly?: boolean };
/** Runs steps as one unit of the group commit (group-commit.ts): their results, or which guard found nothing to change. */
export type RunSteps = (steps: Step[]) => Promise<Result[] | { lost: number }>;

/**
 * The thread of the one connection that writes: with synchronous=FULL, SQLite syncs the WAL inside COMMIT, and that
 * wait happens here, never on the event loop. It runs a message's ops in turn, opening the group's transaction
 * (BEGIN IMMEDIATE) at its first unit, and answers once, with every op's outcome.
 */
function serve({ file, synchronous, readOnly = false }: WriterData): void {
  const db = new Database(file);
  // temp_store: each unit's savepoint journal stays in memory, not in a temporary file written page by page.
  const writing = ['journal_mode = WAL', `synchronous = ${synchronous}`, 'foreign_keys = ON', 'temp_store = MEMORY'];
  for (const pragma of ['busy_timeout = 5000', ...(readOnly ? ['query_only = ON'] : writing)]) db.pragma(pragma);
  // A reader yields to the event loop's thread when both want a core (Linux: a thread's own nice value).
  if (readOnly) setPriority(10);
  const statements = new Map<string, Statement>();
  const run = ({ sql, parameters }: Step): Result => {
    if (statements.size >= 500 && !statements.has(sql)) statements.clear();
    const statement = statements.get(sql) ?? statements.set(sql, db.prepare(sql)).get(sql)!;
    if (statement.reader) return { rows: statement.all(parameters) };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { changes, lastInsertRowid };
  };
  const savepoint = () => readOnly || db.exec(db.inTransaction ? 'SAVEPOINT unit' : 'BEGIN IMMEDIATE; SAVEPOINT unit');
  // An error that rolled the whole transaction back (a full disk) leaves no savepoint to go back to.
  const undo = () => db.inTransaction && db.exec('ROLLBACK TO unit; RELEASE unit');
  const unit = (steps: Step[]): Done => {
    savepoint();
    const results: Result[] = [];
    try {
      for (const [i, step] of steps.entries()) {
        const result = run(step);
        if (step.guard && ('changes' in result ? result.changes : result.rows.length) === 0)
          return (undo(), { lost: i });
        results.push(result);
      }
    } catch (error) {
      undo();
      throw error;
    }
    if (!readOnly) db.exec('RELEASE unit');
    return { results };
  };
  const perform = (op: Op): Done => {
    if (op.op === 'unit') return unit(op.steps);
    if (op.op === 'run' && !db.inTransaction) throw new Error("the unit's transaction was rolled back");
    if (op.op === 'run') return { results: [run(op)] };
    if (op.op === 'begin') savepoint();
    else if (op.op === 'end') op.keep ? db.exec('RELEASE unit') : undo();
    else if (op.op === 'commit') db.inTransaction && db.exec('COMMIT');
    else db.close();
    return { results: [] };
  };
  parentPort!.on('message', (ops: Op[]) => {
    const done: Done[] = [];
    for (const op of ops) {
      const open = db.open && db.inTransaction;
      try {
        done.push(perform(op));
      } catch (error) {
        const { message, code } = error as { message?: string; code?: string };
        done.push({ error: { message: String(message ?? error), ...(code ? { code } : {}) } });
        if (op.op === 'commit' && db.inTransaction) db.exec('ROLLBACK');
      }
      // SQLite rolled the group back (a full disk, an I/O error): what the message still asks would start another.
      if (open && !db.inTransaction && op.op !== 'commit') {
        const lost = done.at(-1)!;
        while (done.length < ops.length)
          done.push('error' in lost ? lost : { error: { message: 'SQLite rolled back the group transaction' } });
        break;
      }
    }
    parentPort!.postMessage({ done, inTransaction: db.open && db.inTransaction } satisfies Reply);
    if (!db.open) parentPort!.close();
  });
  parentPort!.postMessage('open');
}

if (parentPort) serve(workerData as WriterData);
