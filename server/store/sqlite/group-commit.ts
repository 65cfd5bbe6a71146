import type { WriterThread } from './writer-thread.ts';

/** The writer's open transaction, shared by units that arrived together; settles once COMMIT returned (on disk) or failed. */
type Group = PromiseWithResolvers<void> & { units: number };

const MAX_UNITS = 64;

/**
 * Short groups with one savepoint per unit of work. Units run one at a time on the writer, in the order they asked:
 * the first opens the group (BEGIN IMMEDIATE), each runs inside SAVEPOINT unit and ends with RELEASE, or with
 * ROLLBACK TO + RELEASE when it failed, which undoes its writes alone. The group commits once nobody is waiting for the
 * writer (or once it holds `MAX_UNITS`), and every unit learns its outcome only after that COMMIT returned: on disk.
 * While the COMMIT waits for the disk the event loop serves requests; their units wait and form the next group.
 */
export class GroupCommit {
  private readonly waiting: (() => void)[] = [];
  private group: Group | undefined;
  private busy = false; // a unit holds the writer
  private committing = false;
  private closeScheduled = false;
  private readonly writer: WriterThread;

  constructor(writer: WriterThread) {
    this.writer = writer;
  }

  /** Waits for this unit's turn and opens its savepoint; the unit then has the writer until `end`. */
  async begin(): Promise<void> {
    await new Promise<void>((admit) => {
      this.waiting.push(admit);
      this.next();
    });
    // Both go with the unit's first statement: if they fail, so does it, and the unit with it.
    if (!this.group) {
      this.writer.ahead.push('BEGIN IMMEDIATE');
      this.group = { units: 0, ...Promise.withResolvers<void>() };
      this.group.promise.catch(() => {}); // Should its units all have left early, its failure is no unhandled rejection.
    }
    this.group.units++;
    this.writer.ahead.push('SAVEPOINT unit');
  }

  /** Ends the running unit, keeping or undoing its writes. Resolves once its group is on disk; rejects if it is not. */
  end(keep: boolean): Promise<void> {
    const group = this.group!;
    const { ahead } = this.writer;
    if (ahead.at(-1) === 'SAVEPOINT unit') {
      ahead.pop(); // The unit ran no statement.
    } else if (keep) {
      ahead.push('RELEASE unit'); // With the next statement, or the COMMIT: if it fails, the group fails.
    } else {
      try {
        ahead.push('ROLLBACK TO unit');
        this.writer.run('RELEASE unit');
      } catch (error) {
        this.abandon(error);
      }
    }
    // Some errors (a full disk, I/O) make SQLite roll the whole transaction back: the earlier units' writes are gone too.
    if (this.group === group && ahead.length === 0 && !this.writer.inTransaction) {
      this.abandon(new Error('SQLite rolled back the group transaction after an error'));
    }
    this.busy = false;
    this.next();
    return group.promise;
  }

  /** Waits until every unit has ended and every group is on disk; for closing the database. */
  async close(): Promise<void> {
    while (this.busy || this.committing || this.group || this.waiting.length > 0) await new Promise((resolve) => setTimeout(resolve, 1));
  }

  private next(): void {
    if (this.busy || this.committing) return;
    if (this.group && this.group.units >= MAX_UNITS) return this.commit();
    const admit = this.waiting.shift();
    if (admit) {
      this.busy = true;
      return admit();
    }
    if (!this.group || this.closeScheduled) return;
    // Requests whose bytes arrived together reach their units before the event loop gets here: they join this group.
    this.closeScheduled = true;
    setImmediate(() => {
      this.closeScheduled = false;
      if (this.group && !this.busy && !this.committing) this.commit();
    });
  }

  private commit(): void {
    const group = this.group!;
    this.group = undefined;
    const { ahead } = this.writer;
    // Its units ran no statement: nothing to commit.
    if (ahead.length === 1 && ahead[0] === 'BEGIN IMMEDIATE') return void (ahead.pop(), this.committed(group));
    this.committing = true;
    this.writer.runAsync('COMMIT').then(
      () => this.committed(group),
      (error: unknown) => {
        if (this.writer.inTransaction) this.rollback();
        this.committed(group, error);
      },
    );
  }

  private committed(group: Group, error?: unknown): void {
    this.committing = false;
    if (error === undefined) group.resolve();
    else group.reject(error);
    this.next();
  }

  /** The open group cannot commit: every unit in it is told so, and the next unit opens a new one. */
  private abandon(error: unknown): void {
    const group = this.group!;
    this.group = undefined;
    if (this.writer.inTransaction) this.rollback();
    group.reject(error);
  }

  private rollback(): void {
    try {
      this.writer.run('ROLLBACK');
    } catch {
      // SQLite had rolled it back already.
    }
  }
}
