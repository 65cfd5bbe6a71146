import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export type CheckpointMode = 'PASSIVE' | 'RESTART';

/** What a checkpoint found: frames in the WAL, and how many of them are now in the database file. */
export interface CheckpointResult {
  logFrames: number;
  checkpointedFrames: number;
}

// A worker of its own connection; plain JavaScript, so it runs the same under tsx and compiled.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
// The copy into the database file is synced before the WAL is reused: never OFF here.
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 5000');
parentPort.on('message', ({ id, mode }) => {
  if (mode === 'CLOSE') {
    db.close();
    parentPort.postMessage({ id });
    return;
  }
  try {
    const [row] = db.pragma('wal_checkpoint(' + mode + ')');
    parentPort.postMessage({ id, logFrames: row.log, checkpointedFrames: row.checkpointed });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) });
  }
});
`;

/**
 * Copies the WAL back into the database file on a thread of its own: a checkpoint writes and syncs megabytes,
 * which on the event loop's thread would stall every request for tens of milliseconds.
 */
export class Checkpointer {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (result: CheckpointResult) => void; reject: (error: Error) => void }>();
  private nextId = 0;

  constructor(file: string) {
    this.worker = new Worker(WORKER, { eval: true, workerData: { file, driver: createRequire(import.meta.url).resolve('better-sqlite3') } });
    this.worker.unref();
    this.worker.on('message', ({ id, error, ...result }: { id: number; error?: string } & CheckpointResult) => {
      const waiting = this.pending.get(id);
      this.pending.delete(id);
      if (error) waiting?.reject(new Error(error));
      else waiting?.resolve(result);
    });
    this.worker.on('error', (error) => {
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    });
  }

  /** PASSIVE copies what no reader still needs and never waits; RESTART copies everything and has the next commit start the WAL over. */
  checkpoint(mode: CheckpointMode): Promise<CheckpointResult> {
    return this.send(mode);
  }

  async close(): Promise<void> {
    await this.send('CLOSE').catch(() => {});
    await this.worker.terminate();
  }

  private send(mode: CheckpointMode | 'CLOSE'): Promise<CheckpointResult> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, mode });
    });
  }
}
