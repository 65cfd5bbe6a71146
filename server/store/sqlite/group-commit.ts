import type { WriterThread } from './writer-thread.ts';

/** One transaction of the writer, shared by the units of requests that arrived together. */
interface Group {
  units: number;
  /** Settles once the group's COMMIT has returned (its writes are on disk), or failed. */
  committed: Promise<void>;
  succeed: () => void;
  fail: (error: unknown) => void;
}

/**
 * Short groups with one savepoint per unit of work. Units run one at a time on the writer, in the order they asked:
 * the first opens the group (BEGIN IMMEDIATE), each runs inside SAVEPOINT unit and ends with RELEASE, or with
 * ROLLBACK TO + RELEASE when it failed, which undoes its writes alone. The group commits once nobody is waiting for the
 * writer (or once it holds `maxUnits`), and every unit learns its outcome only after that COMMIT returned: on disk.
 * While the COMMIT waits for the disk the event loop serves requests; their units wait and form the next group.
 */
export class GroupCommit {
  private readonly waiting: (() => void)[] = [];
  private group: Group | undefined;
  /** A unit holds the writer. */
  private busy = false;
  private committing = false;
  private closeScheduled = false;

  constructor(
    private readonly writer: WriterThread,
    private readonly maxUnits = 64,
  ) {}

  /** Waits for this unit's turn and opens its savepoint; the unit then has the writer until `end`. */
  async begin(): Promise<void> {
    await new Promise<void>((admit) => {
      this.waiting.push(admit);
      this.next();
    });
    // Both go with the unit's first statement. If they fail, so does it, and the unit with it.
    if (!this.group) {
      this.writer.defer('BEGIN IMMEDIATE');
      this.group = newGroup();
    }
    this.group.units++;
    this.writer.defer('SAVEPOINT unit');
  }

  /** Ends the running unit, keeping or undoing its writes. Resolves once its group is on disk; rejects if it is not. */
  end(keep: boolean): Promise<void> {
    const group = this.group!;
    if (this.writer.undefer('SAVEPOINT unit')) {
      // The unit ran no statement.
    } else if (keep) {
      // Goes with the next statement, or with the COMMIT: if it fails, the group fails.
      this.writer.defer('RELEASE unit');
    } else {
      try {
        this.writer.run('ROLLBACK TO unit');
        this.writer.run('RELEASE unit');
      } catch (error) {
        this.abandon(error);
      }
    }
    // Some errors (a full disk, I/O) make SQLite roll the whole transaction back: the earlier units' writes are gone too.
    if (this.group === group && !this.writer.deferring && !this.writer.inTransaction) {
      this.abandon(new Error('SQLite rolled back the group transaction after an error'));
    }
    this.busy = false;
    this.next();
    return group.committed;
  }

  /** Runs one statement as a unit of its own. */
  async runAlone<T>(statement: () => T): Promise<T> {
    await this.begin();
    let result: T;
    try {
      result = statement();
    } catch (error) {
      await this.end(false);
      throw error;
    }
    await this.end(true);
    return result;
  }

  /** Waits until every unit has ended and every group is on disk; for closing the database. */
  async close(): Promise<void> {
    while (this.busy || this.committing || this.group || this.waiting.length > 0) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }

  private next(): void {
    if (this.busy || this.committing) return;
    if (this.group && this.group.units >= this.maxUnits) return this.commit();
    const admit = this.waiting.shift();
    if (admit) {
      this.busy = true;
      admit();
      return;
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
    // Its units ran no statement: nothing to commit.
    if (this.writer.undefer('BEGIN IMMEDIATE')) return this.committed(group);
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
    if (error === undefined) group.succeed();
    else group.fail(error);
    this.next();
  }

  /** The open group cannot commit: every unit in it is told so, and the next unit opens a new one. */
  private abandon(error: unknown): void {
    const group = this.group!;
    this.group = undefined;
    if (this.writer.inTransaction) this.rollback();
    group.fail(error);
  }

  private rollback(): void {
    try {
      this.writer.run('ROLLBACK');
    } catch {
      // Nothing left to undo: SQLite had rolled it back already.
    }
  }
}

function newGroup(): Group {
  let succeed!: () => void;
  let fail!: (error: unknown) => void;
  const committed = new Promise<void>((resolve, reject) => {
    succeed = resolve;
    fail = reject;
  });
  // Every unit awaits it; this only keeps a group whose units all left early from reporting an unhandled rejection.
  committed.catch(() => {});
  return { units: 0, committed, succeed, fail };
}
