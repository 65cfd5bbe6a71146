import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { Done, Failure, Op, Reply, Result, Step, WriterData } from './writer-thread.ts';

/** Told once its group's COMMIT returned (no error: on disk) or failed. */
type Member = (error?: unknown) => void;
/** A unit waiting for the writer: its steps, sent in one message, or the turn of a unit whose statements come one by one. */
type Waiting = { steps: Step[]; done: (done: Done) => Member } | { turn: () => void };

const MAX_UNITS = 64;

/**
 * Group commit over the writer's thread (writer-thread.ts), one message at a time. Units run in the order they asked,
 * each in a savepoint of the group's transaction, so one that fails is undone alone. A unit whose statements are
 * known (a change, a lone write) travels in one message with the units waiting beside it; a Kysely transaction's
 * statements go one message each while it holds the writer. The group commits in the message of its last unit when
 * nobody else waits (or at `MAX_UNITS`), and each unit learns its outcome only once that COMMIT returned: on disk.
 * Nothing here blocks the event loop: while the writer works, requests are served, and their units form the next group.
 */
export class GroupCommit {
  private readonly worker: Worker;
  private readonly waiting: Waiting[] = [];
  /** The units of the open group, told its outcome. */
  private group: Member[] | undefined;
  /** The group of the unit holding the writer, and that unit's outcome. */
  private held: { group: Member[]; outcome: Promise<void> } | undefined;
  /** Ops that go with the next message: the savepoint of the unit holding the writer, or the end of one. */
  private readonly ahead: Op[] = [];
  private busy = false; // a message is with the writer, or a unit holds it
  private scheduled = false;
  private answer: PromiseWithResolvers<Reply> | undefined;

  /** Starts the writer's thread; fails as opening the database there failed. */
  static async open(data: WriterData): Promise<GroupCommit> {
    const worker = new Worker(new URL('./writer-thread.ts', import.meta.url), { workerData: data });
    await once(worker, 'message');
    return new GroupCommit(worker);
  }

  private constructor(worker: Worker) {
    this.worker = worker;
    worker.on('message', (reply: Reply) => this.answer?.resolve(reply));
    const died = (error: unknown) =>
      this.answer?.reject(error instanceof Error ? error : new Error('the SQLite writer thread ended'));
    worker.on('error', died).on('exit', died);
    worker.unref(); // after the listeners, which ref it again
  }

  /** Runs `steps` as one unit: their results once the group is on disk, or which guard step found nothing to change. */
  unit(steps: Step[]): Promise<Result[] | { lost: number }> {
    return new Promise((resolve, reject) => {
      // A unit's own error is told once its group's outcome is known.
      const done =
        (done: Done): Member =>
        (error) => {
          if ('error' in done) reject(asError(done.error));
          else if ('lost' in done) resolve(done);
          else if (error !== undefined) reject(error);
          else resolve(done.results);
        };
      this.waiting.push({ steps, done });
      this.schedule();
    });
  }

  /** Waits for this unit's turn; the unit then holds the writer, statement by statement (`run`), until `end`. */
  async begin(): Promise<void> {
    await new Promise<void>((turn) => {
      this.waiting.push({ turn });
      this.schedule();
    });
  }

  /** A statement of the unit holding the writer; it fails with the first error of what rode along with it. */
  async run(sql: string, parameters: readonly unknown[]): Promise<Result> {
    const reply = await this.send([...this.ahead.splice(0), { op: 'run', sql, parameters }]);
    const failed = firstFailure(reply);
    if (!reply.inTransaction) this.settle(this.held!.group, failed ?? rolledBack());
    if (failed) throw failed;
    return (reply.done.at(-1) as { results: Result[] }).results[0]!;
  }

  /** Ends the unit holding the writer, keeping or undoing its writes. Resolves once its group is on disk; rejects if it is not. */
  end(keep: boolean): Promise<void> {
    const { outcome } = this.held!;
    this.held = undefined;
    if (this.ahead.at(-1)?.op === 'begin')
      this.ahead.pop(); // it ran no statement
    else this.ahead.push({ op: 'end', keep });
    this.busy = false;
    this.schedule();
    return outcome;
  }

  /** Waits until every unit has ended and every group is on disk, then closes the connection and its thread. */
  async close(): Promise<void> {
    while (this.busy || this.group || this.waiting.length > 0) await new Promise((resolve) => setTimeout(resolve, 1));
    await this.send([{ op: 'close' }]).catch(() => {});
    await this.worker.terminate();
  }

  // Units that asked in the same turn of the event loop go in one message.
  private schedule(): void {
    if (this.scheduled || this.busy) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.next();
    });
  }

  private async next(): Promise<void> {
    const first = this.waiting[0];
    if (this.busy || (!first && !this.group)) return;
    const group = (this.group ??= []);
    this.busy = true;
    if (first && 'turn' in first) {
      this.waiting.shift();
      const { promise, resolve, reject } = Promise.withResolvers<void>();
      promise.catch(() => {}); // Told before it ends, should the group fail meanwhile: no unhandled rejection.
      group.push((error) => (error === undefined ? resolve() : reject(error)));
      this.held = { group, outcome: promise };
      this.ahead.push({ op: 'begin' });
      return first.turn();
    }
    const units: Extract<Waiting, { steps: Step[] }>[] = [];
    while (this.waiting[0] && 'steps' in this.waiting[0] && group.length + units.length < MAX_UNITS)
      units.push(this.waiting.shift() as (typeof units)[number]);
    const commit = this.waiting.length === 0 || group.length + units.length >= MAX_UNITS;
    const ops: Op[] = [...this.ahead.splice(0), ...units.map(({ steps }): Op => ({ op: 'unit', steps }))];
    if (commit) ops.push({ op: 'commit' });
    const reply = await this.send(ops).catch((error: Error): Reply => ({
      inTransaction: false,
      done: ops.map(() => ({ error: { message: error.message } })),
    }));
    const unitsDone = reply.done.slice(ops.length - units.length - (commit ? 1 : 0));
    units.forEach((unit, i) => group.push(unit.done(unitsDone[i]!)));
    const last = reply.done.at(-1)!;
    if (commit) this.settle(group, 'error' in last ? asError(last.error) : undefined);
    else if (!reply.inTransaction) this.settle(group, firstFailure(reply) ?? rolledBack());
    this.busy = false;
    this.schedule();
  }

  /** The group committed (no error), or cannot: every unit in it is told, and the next unit opens a new one. */
  private settle(group: Member[], error?: unknown): void {
    if (this.group === group) this.group = undefined;
    for (const member of group.splice(0)) member(error);
  }

  private async send(ops: Op[]): Promise<Reply> {
    this.answer = Promise.withResolvers<Reply>();
    // The process stays up until the writer has answered (a COMMIT's outcome included).
    this.worker.ref();
    this.worker.postMessage(ops);
    try {
      return await this.answer.promise;
    } finally {
      this.answer = undefined;
      this.worker.unref();
    }
  }
}

const rolledBack = () => new Error('SQLite rolled back the group transaction after an error');

function firstFailure(reply: Reply): Error | undefined {
  const failed = reply.done.find((done): done is Failure => 'error' in done);
  return failed && asError(failed.error);
}

function asError({ message, code }: Failure['error']): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}
