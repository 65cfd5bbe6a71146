import type { Database, Statement } from 'better-sqlite3';
import type { QueryResult } from 'kysely';
import { GroupSizes } from './group-sizes.ts';
import { runStatement } from './run-statement.ts';
import type { StatementCache } from './statement-cache.ts';

export interface GroupCommitOptions {
  /** Units in one group at most. */
  maxUnits?: number;
  /**
   * How long, after it began, a group still takes units in while the group before it is not being written to disk.
   * A group otherwise closes when the event loop has run out of ready work (the requests whose bytes arrived
   * together), so a lone write waits for no timer.
   */
  maxWaitMs?: number;
}

/** How a commit reaches the disk before anybody is told of it (`wal-sync.ts`); without one, a commit is final at once. */
export interface Durability {
  /** Right before a commit: this process's reads stay on the state before it until `release`. */
  hold(): void;
  /** Resolves once everything committed so far is on disk. */
  sync(): Promise<void>;
  /** Reads may see everything committed. */
  release(): void;
  /** Whether the WAL has grown so long that it should start over before the next group begins. */
  wantsRestart(): boolean;
  /** With no transaction open on the writer: copies the whole WAL into the database so the next commit starts it over. */
  restart(): Promise<void>;
}

interface Waiter {
  admit: () => void;
  refuse: (error: unknown) => void;
}

/** A write a unit made in the open group, kept so that it can be made again (see `undoRunningUnit`). */
interface Write {
  statement: Statement;
  parameters: readonly unknown[];
  /** What it did: rows changed (or returned, for a write with RETURNING); 1 for a change of the schema. */
  changed: number;
  /**
   * The rowid it gave, or undefined if it gave none. better-sqlite3 reports the connection's last rowid after every
   * write, also after an update or an insert into a WITHOUT ROWID table, which set none; made again after a failing
   * unit's insert, those report that insert's rowid instead. So only a rowid the write changed is compared (an insert
   * that happened to give the rowid the one before it gave, in another table, goes unchecked: its rows are not).
   */
  rowid: bigint | undefined;
}

/** One database transaction shared by the units of concurrent requests. */
interface Group {
  units: number;
  beganAt: number;
  /** It would have committed, but the group before it was still being written to disk. */
  due: boolean;
  /** Settles when the group's writes are committed and on disk, or could not be. */
  committed: Promise<void>;
  succeed: () => void;
  fail: (error: unknown) => void;
}

/**
 * Group commit on one SQLite connection: the write work of concurrent requests runs unit after unit inside one
 * transaction, and the transaction commits once for all of them. Every unit learns its outcome only after that commit
 * is on disk, so nobody is told of a write that is not durable, nor of a refusal that rested on another unit's write
 * that never committed.
 *
 * Units run one at a time, in the order they asked, so a unit sees every write of the units before it: money
 * rules that read then write (a refund reads its sale's earlier refunds) keep their meaning.
 *
 * A unit that fails leaves nothing behind. Units run without savepoints of their own: a savepoint copies every page a
 * unit changes to its journal first, about a tenth of a payment's CPU (docs/performance.md, "Sixth round"). The group
 * keeps one savepoint, at its start, and a list of the writes its units made. When a unit fails after it changed
 * something, the group rolls back to its start and makes the earlier units' writes again, statement by statement:
 * SQLite runs a statement the same way on the same data, and no other connection can write while the group holds
 * the write lock, so that restores exactly the state the failing unit began on. Each write must do again what it did
 * (the same rows changed, the same rowid given); if one does not, the whole group fails rather than commit a guess.
 * A statement that fails changes nothing (SQLite undoes it), so a unit that failed before it changed anything, as a
 * refused refund or a duplicate order id does, costs no redo.
 *
 * While one group is written to disk (off the event loop), the next one runs its units; it commits when the first
 * is on disk. So the disk's latency sets the pace of commits, not how much work the service gets done.
 */
export class GroupCommit {
  readonly sizes = new GroupSizes();
  private readonly maxUnits: number;
  private readonly maxWaitMs: number;
  private readonly waiting: Waiter[] = [];
  /** The group taking units. */
  private group: Group | undefined;
  /** The group committed and being written to disk. */
  private syncing: Group | undefined;
  /** A unit holds the connection. */
  private busy = false;
  /** The writes of the open group's units, in the order they ran. */
  private writes: Write[] = [];
  /** Where the writes of the unit holding the connection begin in `writes`. */
  private unitStart = 0;
  /** The connection's last rowid as of the last write run, or undefined when not known (read again when needed). */
  private lastRowid: bigint | undefined;
  /** The group a close is scheduled for. */
  private closing: Group | undefined;
  /** Running what the last answers set off (see `closeSoon`). */
  private afterAnswers = false;
  /** The WAL should start over: no group begins until it has (see `restartIfDue`). */
  private restartDue = false;
  private restarting: Promise<void> | undefined;
  private readonly db: Database;
  /** Prepared once: `exec` would parse each of these again for every group. */
  private readonly statements: Record<'begin' | 'commit' | 'savepoint' | 'rollbackTo' | 'lastRowid', Statement>;

  constructor(
    /** The writing connection's statements: every statement a unit runs comes through `run`. */
    private readonly writer: StatementCache,
    private readonly durability?: Durability,
    options: GroupCommitOptions = {},
  ) {
    this.db = writer.database;
    this.maxUnits = options.maxUnits ?? 64;
    this.maxWaitMs = options.maxWaitMs ?? 1;
    this.statements = {
      // IMMEDIATE takes the write lock now: another process's writer makes this wait (busy_timeout), not fail later.
      begin: this.db.prepare('BEGIN IMMEDIATE'),
      commit: this.db.prepare('COMMIT'),
      savepoint: this.db.prepare('SAVEPOINT group_start'),
      rollbackTo: this.db.prepare('ROLLBACK TO group_start'),
      lastRowid: this.db.prepare('SELECT last_insert_rowid()').pluck().safeIntegers(),
    };
  }

  /** Waits for this unit's turn; it then has the connection until it calls `end`. */
  begin(): Promise<void> {
    return new Promise((admit, refuse) => {
      this.waiting.push({ admit, refuse });
      this.admitNext();
    });
  }

  /** Runs a statement of the unit that holds the connection, keeping what a write did so that it can be made again. */
  run<R>(sql: string, parameters: readonly unknown[]): QueryResult<R> {
    const statement = this.writer.prepare(sql);
    if (statement.readonly) return runStatement<R>(statement, parameters);
    const rowidBefore = (this.lastRowid ??= this.statements.lastRowid.get() as bigint);
    let result: QueryResult<R>;
    try {
      result = runStatement<R>(statement, parameters);
    } catch (error) {
      // A statement that failed after inserting a row leaves that row's rowid as the connection's last.
      this.lastRowid = undefined;
      throw error;
    }
    this.lastRowid = result.insertId;
    const rowid = result.insertId !== rowidBefore ? result.insertId : undefined;
    this.writes.push({ statement, parameters, changed: changedBy(statement, result), rowid });
    return result;
  }

  /** A prepared statement of the writing connection, for a unit's reads that stream their rows. */
  prepare(sql: string): Statement {
    return this.writer.prepare(sql);
  }

  /**
   * Ends the running unit, keeping its writes or undoing them, and gives the connection to the next unit. Resolves
   * once the group that holds the unit is committed and on disk; rejects if it could not be.
   */
  end(keep: boolean): Promise<void> {
    const group = this.group!;
    if (!keep) this.undoRunningUnit();
    // Some errors (a full disk, I/O) make SQLite roll the whole transaction back: the earlier units' writes are gone too.
    if (this.group === group && !this.db.inTransaction) this.abandon(new Error('SQLite rolled back the group transaction after an error'));
    this.busy = false;
    this.admitNext();
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

  /** Commits what is open and waits until everything is on disk; for closing the database. */
  async close(): Promise<void> {
    for (;;) {
      await this.restarting;
      const pending = this.syncing ?? this.group;
      if (!pending) return;
      if (pending === this.group && !this.busy) this.commit();
      await pending.committed.catch(() => {});
    }
  }

  private admitNext(): void {
    if (this.busy) return;
    if (this.group && !this.admits(this.group)) {
      // Full or old enough: it commits as soon as the group before it is on disk; the waiting units start the next.
      if (this.syncing) {
        this.group.due = true;
        return;
      }
      this.commit();
    }
    if (!this.group && (this.restartDue || this.restarting)) {
      this.restartIfDue();
      return;
    }
    const waiter = this.waiting.shift();
    if (!waiter) {
      if (this.group) this.closeSoon(this.group);
      return;
    }
    try {
      if (!this.group) this.open();
    } catch (error) {
      waiter.refuse(error);
      this.admitNext();
      return;
    }
    this.busy = true;
    this.unitStart = this.writes.length;
    this.group!.units++;
    waiter.admit();
  }

  /** While the group before is written to disk, this one cannot commit anyway: it takes units until it is full. */
  private admits(group: Group): boolean {
    return group.units < this.maxUnits && (this.syncing !== undefined || performance.now() - group.beganAt < this.maxWaitMs);
  }

  private open(): void {
    this.lastRowid = undefined;
    this.statements.begin.run();
    try {
      this.statements.savepoint.run();
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
    let succeed!: () => void;
    let fail!: (error: unknown) => void;
    const committed = new Promise<void>((resolve, reject) => {
      succeed = resolve;
      fail = reject;
    });
    // Every unit awaits it; this only keeps a group whose units all left early from reporting an unhandled rejection.
    committed.catch(() => {});
    this.group = { units: 0, beganAt: performance.now(), due: false, committed, succeed, fail };
  }

  /**
   * With nobody waiting, the group stays open until the event loop has handled the I/O that is ready: requests that
   * arrived with this one reach their units in that time (every statement is synchronous, so a unit never yields
   * to the event loop and a group would otherwise never hold more than one).
   *
   * Writes set off by the answers of a group (the next write of a sequence, a webhook attempt's outcome) close
   * instead once those answers have all run, without leaving the event loop turn: they can only have each other
   * for company, and a sequence of writes then runs as one stretch of work, as it would without group commit.
   */
  private closeSoon(group: Group): void {
    if (this.closing === group) return;
    this.closing = group;
    const close = () => {
      if (this.closing !== group) return;
      this.closing = undefined;
      if (this.group !== group || this.busy) return;
      if (this.syncing) group.due = true;
      else this.commit();
    };
    if (this.afterAnswers) process.nextTick(close);
    else setImmediate(close);
  }

  private commit(): void {
    const group = this.group!;
    this.group = undefined;
    this.closing = undefined;
    this.writes = [];
    this.durability?.hold();
    try {
      this.statements.commit.run();
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      this.durability?.release();
      this.answer(group, error);
      return;
    }
    this.sizes.record(group.units);
    if (!this.durability) return this.answer(group);
    this.syncing = group;
    this.durability.sync().then(
      () => this.synced(group),
      (error: unknown) => this.synced(group, error),
    );
  }

  private synced(group: Group, error?: unknown): void {
    const durability = this.durability!;
    this.syncing = undefined;
    durability.release();
    this.restartDue ||= durability.wantsRestart();
    // The next group starts on its way to the disk before this one's answers run.
    if (this.group?.due && !this.busy) this.commit();
    this.answer(group, error);
    this.restartIfDue();
    this.admitNext();
  }

  /**
   * The WAL starts over only if it was all copied into the database when a transaction began, which never happens
   * while each group begins before the one before it is on disk (and the reader is held before that one). So now
   * and then the groups stop: the last one commits, reaches the disk, the WAL is copied back (on the checkpointer's
   * thread; reads go on meanwhile), and the next group starts it over.
   */
  private restartIfDue(): void {
    if (!this.restartDue || this.restarting || this.group || this.syncing) return;
    this.restarting = this.durability!.restart()
      .catch(() => {
        // The WAL goes on growing for now; the next sync asks again.
      })
      .finally(() => {
        this.restarting = undefined;
        this.restartDue = false;
        this.admitNext();
      });
  }

  private answer(group: Group, error?: unknown): void {
    this.afterAnswers = true;
    if (error === undefined) group.succeed();
    else group.fail(error);
    // The answers run as promise jobs; a tick queued from one of them runs once they all have (Node runs the tick
    // queue only when the promise job queue is empty), and before the closes they scheduled. If none was
    // scheduled, nothing followed. Only batching depends on this, never what commits.
    queueMicrotask(() =>
      process.nextTick(() => {
        if (!this.closing) this.afterAnswers = false;
      }),
    );
  }

  /**
   * Takes back what the failing unit changed: back to the group's start, then the earlier units' writes again. A unit
   * that changed nothing has nothing to take back.
   */
  private undoRunningUnit(): void {
    const earlier = this.writes.slice(0, this.unitStart);
    const changedSomething = this.writes.slice(this.unitStart).some((write) => write.changed > 0);
    this.writes = earlier;
    if (!changedSomething) return;
    this.lastRowid = undefined;
    try {
      this.statements.rollbackTo.run();
      for (const write of earlier) {
        const result = runStatement(write.statement, write.parameters);
        if (changedBy(write.statement, result) !== write.changed || (write.rowid !== undefined && result.insertId !== write.rowid)) {
          throw new Error(`a write of the group did not do again what it did: ${write.statement.source}`);
        }
      }
    } catch (error) {
      this.abandon(error);
    }
  }

  /** The group cannot commit: every unit in it is told so, and the next unit starts a new one. */
  private abandon(error: unknown): void {
    const group = this.group!;
    this.group = undefined;
    this.closing = undefined;
    this.writes = [];
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
    this.answer(group, error);
  }
}

const SCHEMA_CHANGE = /^\s*(?:CREATE|DROP|ALTER)\b/i;

/** How much a write did, to compare with its redo: rows changed or returned, and any change of the schema as 1. */
function changedBy(statement: Statement, result: QueryResult<unknown>): number {
  if (SCHEMA_CHANGE.test(statement.source)) return 1;
  return result.numAffectedRows === undefined ? result.rows.length : Number(result.numAffectedRows);
}
