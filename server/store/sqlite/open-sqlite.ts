import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import type { CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { Database } from '../schema.ts';
import type { RunUnit } from '../units.ts';
import { GroupCommit, type GroupCommitOptions } from './group-commit.ts';
import { executeOutsideUnit, GroupCommitSqliteDialect } from './group-commit-dialect.ts';
import { groupCommitUnits } from './group-commit-units.ts';
import { StatementCache } from './statement-cache.ts';
import { WalSync } from './wal-sync.ts';

export interface OpenedSqlite {
  dialect: GroupCommitSqliteDialect;
  groups: GroupCommit;
  /** Runs a statement outside any unit of work without going through Kysely's connection handling. */
  executeOutsideUnit: (query: CompiledQuery) => Promise<QueryResult<unknown>>;
  /** How the store over `root` (a Kysely of this dialect) runs its units of work: as units of the group commit. */
  units: (root: Kysely<Database>) => RunUnit;
  /** A number that changes whenever any connection, in any process, commits to the database (store.ts). */
  committedVersion: () => number;
  /** After Kysely closed the connections: stops the checkpointer, removes the files of a `memory` database. */
  afterClose: () => Promise<void>;
}

export interface SqliteOptions extends GroupCommitOptions {
  /** WAL frames after which the WAL starts over (wal-sync.ts). */
  walRestartFrames?: number;
  /** Told of every statement the writing connection runs, with its parameters (the bench's floor records writes so). */
  traceWrites?: (sql: string, parameters: readonly unknown[]) => void;
}

/**
 * The embedded database: one file in WAL mode, one connection that writes (in group commits) and one that reads.
 * `memory` is a temporary file that is removed on close, so that it works exactly like a kept database.
 */
export function openSqlite(dataDir: string, options: SqliteOptions = {}): OpenedSqlite {
  const memory = dataDir === 'memory';
  const dir = memory ? mkdtempSync(join(tmpdir(), 'paykit-memory-')) : dataDir;
  if (!memory) mkdirSync(dir, { recursive: true });
  const file = join(dir, 'paykit.sqlite');
  // A kept database is as durable as with synchronous=FULL: an acknowledged payment survives a power cut, not only
  // a crash. SQLite syncs at checkpoints (NORMAL) and WalSync syncs the WAL after every group's commit, off the
  // event loop, before anyone hears of it. Nothing is kept of `memory`, so it syncs nothing.
  const synchronous = memory ? 'OFF' : 'NORMAL';

  const writer = new SQLite(file);
  writer.pragma('journal_mode = WAL');
  writer.pragma(`synchronous = ${synchronous}`);
  writer.pragma('foreign_keys = ON');
  writer.pragma('busy_timeout = 5000');
  // The group's savepoint journals the pages its units change; past 64 KB SQLite would spill that journal to a
  // temporary file, a write system call per page. A group's pages are few and released with it: memory holds them.
  writer.pragma('temp_store = MEMORY');
  // The checkpointer's thread copies the WAL back (wal-sync.ts); the writer would do it inside COMMIT, on the event loop.
  if (!memory) writer.pragma('wal_autocheckpoint = 0');

  const reader = new SQLite(file);
  reader.pragma(`synchronous = ${synchronous}`);
  reader.pragma('busy_timeout = 5000');
  reader.pragma('query_only = ON');

  const walSync = memory ? undefined : new WalSync(file, reader, options.walRestartFrames);
  const writing = new StatementCache(writer, undefined, options.traceWrites);
  const groups = new GroupCommit(writing, walSync, options);
  const connections = { writer: writing, reader: new StatementCache(reader), groups };
  const dialect = new GroupCommitSqliteDialect(connections);
  // SQLite's data_version on the reading connection: it moves whenever another connection (ours that writes, or a
  // CLI's) has committed since, and the reader never writes, so it moves with every commit.
  const dataVersion = reader.prepare('PRAGMA data_version').pluck();
  return {
    dialect,
    groups,
    executeOutsideUnit: (query) => executeOutsideUnit(connections, query),
    units: (root) => groupCommitUnits(root, dialect, connections),
    committedVersion: () => dataVersion.get() as number,
    afterClose: async () => {
      await walSync?.close();
      if (memory) rmSync(dir, { recursive: true, force: true });
    },
  };
}
