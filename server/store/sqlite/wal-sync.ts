import fs from 'node:fs';
import type { Database, Statement } from 'better-sqlite3';
import type { Durability } from './group-commit.ts';
import { Checkpointer } from './checkpointer.ts';
import { WalIndex } from './wal-index.ts';

/** WAL frames (4 KB pages) after which the WAL starts over: about 8 MB. */
export const WAL_RESTART_FRAMES = 2000;
/**
 * A checkpoint starts once the WAL has grown by an eighth of that since the last one began, or this long after it.
 * Under load a group commits every few milliseconds, and a checkpoint after each (a message to its thread, the
 * copy, an fsync of the database file) cost a tenth of a write's CPU (docs/performance.md).
 */
export const CHECKPOINT_EVERY_MS = 100;

/**
 * Durable commits without blocking the event loop. SQLite's synchronous=FULL syncs the WAL inside COMMIT, on the
 * only thread that serves requests; instead the writer runs NORMAL and this syncs the WAL file (fdatasync, in
 * libuv's thread pool) after each group's COMMIT, before the group's answers go out. That is what FULL does, one
 * step later: no answer and no read of this process ever shows a write that is not on disk. The reading connection
 * is held on the state before the commit until the sync is done, so a GET cannot show a payment a power cut
 * would take back.
 *
 * Checkpoints (copying the WAL back into the database file) run on a thread of their own for the same reason.
 */
export class WalSync implements Durability {
  private fd: number | undefined;
  private readonly snapshot: Statement;
  private readonly checkpointer: Checkpointer;
  private checkpointing: Promise<unknown> | undefined;
  /** Frames in the WAL: read from its index after each group (undefined when unreadable), at the last checkpoint's end, and at its start. */
  private frames: number | undefined;
  private logFrames = 0;
  private framesAtCheckpoint = 0;
  private lastCheckpointAt = Number.NEGATIVE_INFINITY;
  private readonly walIndex: WalIndex;

  constructor(
    private readonly file: string,
    private readonly reader: Database,
    private readonly restartFrames = WAL_RESTART_FRAMES,
  ) {
    this.snapshot = reader.prepare('SELECT 1 FROM sqlite_schema LIMIT 1');
    this.checkpointer = new Checkpointer(file);
    this.walIndex = new WalIndex(file);
  }

  hold(): void {
    if (this.reader.inTransaction) return;
    // In WAL mode a read transaction sees the database as of its first read, until it ends.
    this.reader.exec('BEGIN');
    this.snapshot.get();
  }

  sync(): Promise<void> {
    // The WAL exists once the writer has written; SQLite reuses the same file, so one descriptor serves throughout.
    this.fd ??= fs.openSync(`${this.file}-wal`, 'r');
    const fd = this.fd;
    return new Promise((resolve, reject) => fs.fdatasync(fd, (error) => (error ? reject(error) : resolve())));
  }

  release(): void {
    if (this.reader.inTransaction) this.reader.exec('COMMIT');
    // One read of the WAL index a group serves both this and `wantsRestart`, which the group commit asks right after.
    const frames = (this.frames = this.walIndex.frames());
    if (this.checkpointing) return;
    const due = frames === undefined || frames - this.framesAtCheckpoint >= this.restartFrames / 8 || performance.now() - this.lastCheckpointAt >= CHECKPOINT_EVERY_MS;
    if (!due) return;
    this.framesAtCheckpoint = frames ?? 0;
    this.lastCheckpointAt = performance.now();
    // Copy back what nobody reads from the WAL any more, while the next group runs.
    this.checkpointing = this.checkpointer
      .checkpoint('PASSIVE')
      .then((result) => (this.logFrames = result.logFrames))
      .catch(() => {})
      .finally(() => (this.checkpointing = undefined));
  }

  wantsRestart(): boolean {
    return (this.frames ?? this.logFrames) >= this.restartFrames;
  }

  async restart(): Promise<void> {
    await this.checkpointing;
    const result = await this.checkpointer.checkpoint('RESTART');
    if (result.checkpointedFrames === result.logFrames) [this.logFrames, this.framesAtCheckpoint] = [0, 0];
  }

  async close(): Promise<void> {
    await this.checkpointing;
    await this.checkpointer.close();
    this.walIndex.close();
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }
}
