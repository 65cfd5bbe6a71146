import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { GroupCommit } from './group-commit.ts';
import { SqliteGroupCommitDialect } from './dialect.ts';
import { WriterThread } from './writer-thread.ts';
import { ReaderThreadDialect } from './reader-thread.ts';

/**
 * The embedded database: one file in WAL mode, one connection that writes (on its own thread, in group commits) and
 * one that reads. `memory` is a temporary file that is removed on close, so that it works exactly like a kept database.
 * Kysely's `destroy()` closes both. `committedVersion` changes whenever any connection, in any process, commits (store.ts).
 */
export function openSqlite(dataDir: string): { dialect: SqliteGroupCommitDialect; committedVersion: () => number; readerThread: ReaderThreadDialect } {
  const memory = dataDir === 'memory';
  const dir = memory ? mkdtempSync(join(tmpdir(), 'paykit-memory-')) : dataDir;
  if (!memory) mkdirSync(dir, { recursive: true });
  const file = join(dir, 'paykit.sqlite');
  const removeMemory = () => memory && rmSync(dir, { recursive: true, force: true });
  // FULL: COMMIT returns only once the WAL holding it is synced, and only then do other connections see it. So an
  // acknowledged payment survives a power cut, and no read shows one that would not. Nothing of `memory` is kept.
  let writer: WriterThread;
  try {
    writer = new WriterThread(file, memory ? 'OFF' : 'FULL');
  } catch (error) {
    removeMemory();
    throw error;
  }
  // Opened after the writer, which puts the file in WAL mode.
  const reader = new SQLite(file);
  for (const pragma of ['busy_timeout = 5000', 'query_only = ON']) reader.pragma(pragma);
  const connections = { writer, groups: new GroupCommit(writer), reader, afterClose: removeMemory };
  // SQLite's data_version on the reading connection: it moves whenever another connection (our writer, or a CLI's)
  // has committed since, and the reader never writes, so it moves with every commit.
  const dataVersion = reader.prepare('PRAGMA data_version').pluck();
  return { dialect: new SqliteGroupCommitDialect(connections), committedVersion: () => dataVersion.get() as number, readerThread: new ReaderThreadDialect(file) };
}
