import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite, { type Statement } from 'better-sqlite3';
import { SqliteDialect, type CompiledQuery, type DatabaseConnection, type QueryResult } from 'kysely';
import { GroupCommit } from './group-commit.ts';
import type { Result } from './writer-thread.ts';

/**
 * The embedded database: one file in WAL mode, one connection that writes (on its own thread, in group commits) and
 * one that reads. `memory` is a temporary file that is removed on close, so that it works exactly like a kept database.
 * Kysely's `destroy()` closes both. `committedVersion` changes whenever any connection, in any process, commits (store.ts).
 * `readerThread`: reads that could run long (long-reads.ts), on a read-only connection of a thread of its own, below
 * the event loop's thread in priority, so the event loop serves every other request meanwhile.
 */
export async function openSqlite(dataDir: string) {
  const memory = dataDir === 'memory';
  const dir = memory ? mkdtempSync(join(tmpdir(), 'paykit-memory-')) : dataDir;
  if (!memory) mkdirSync(dir, { recursive: true });
  const file = join(dir, 'paykit.sqlite');
  const removeMemory = () => memory && rmSync(dir, { recursive: true, force: true });
  // FULL: COMMIT returns only once the WAL holding it is synced, and only then do other connections see it. So an
  // acknowledged payment survives a power cut, and no read shows one that would not. Nothing of `memory` is kept.
  const groups = await GroupCommit.open({ file, synchronous: memory ? 'OFF' : 'FULL' }).catch((error: unknown) => {
    removeMemory();
    throw error;
  });
  // Opened after the writer, which puts the file in WAL mode. query_only: reads outside a unit of work run here, on
  // the last commit, never waiting for the writer.
  const reader = new SQLite(file);
  for (const pragma of ['busy_timeout = 5000', 'query_only = ON']) reader.pragma(pragma);
  // SQLite's data_version on the reading connection: it moves whenever another connection (our writer, or a CLI's)
  // has committed since, and the reader never writes, so it moves with every commit.
  const dataVersion = reader.prepare('PRAGMA data_version').pluck();
  // Started at the first long read: most stores (a CLI's, a test's) never make one.
  let readers: Promise<GroupCommit> | undefined;
  const destroy = async () => {
    await Promise.all([groups.close(), readers?.then((r) => r.close())]);
    reader.close();
    removeMemory();
  };
  const openReaders = () => (readers ??= GroupCommit.open({ file, synchronous: 'OFF', readOnly: true }));
  const readerThread: SqliteDialect = new GroupCommitDialect(openReaders, undefined, async () => {});
  const dialect: SqliteDialect = new GroupCommitDialect(async () => groups, reader, destroy);
  return { dialect, groups, committedVersion: () => dataVersion.get() as number, readerThread };
}

/** What Kysely takes for a connection: it only routes statements, to the writer while a unit of work runs. */
type Lease = DatabaseConnection & { inUnit: boolean };

/**
 * Kysely's SQLite dialect with a driver of our own: a Kysely transaction is a unit of the group commit (every
 * statement on the writer); outside one, a read runs on the reader and a write is a unit of its own.
 */
class GroupCommitDialect extends SqliteDialect {
  constructor(open: () => Promise<GroupCommit>, reader: SQLite.Database | undefined, destroy: () => Promise<void>) {
    super({ database: reader as SQLite.Database });
    let groups: GroupCommit; // Kysely runs the driver's init before its first statement
    /** The reader's prepared statements by SQL text (null: not a read): Kysely's own driver prepares at every run. */
    const reads = new Map<string, Statement | null>();
    const readStatement = (query: CompiledQuery): Statement | null => {
      if (!reader || (query.query.kind !== 'SelectQueryNode' && query.query.kind !== 'RawNode')) return null;
      let statement = reads.get(query.sql);
      if (statement !== undefined) return statement;
      try {
        statement = reader.prepare(query.sql);
      } catch {
        return null; // Not one the reader can run (a table an open group is creating): the writer runs it.
      }
      if (reads.size >= 500) reads.clear();
      reads.set(query.sql, statement.reader && statement.readonly ? statement : null);
      return reads.get(query.sql)!;
    };
    const execute = async <R>(query: CompiledQuery, inUnit: boolean): Promise<QueryResult<R>> => {
      const read = inUnit ? null : readStatement(query);
      if (read) return { rows: read.all(query.parameters) as R[] };
      const result: Result = inUnit
        ? await groups.run(query.sql, query.parameters)
        : ((await groups.unit([{ sql: query.sql, parameters: query.parameters }])) as Result[])[0]!;
      if ('rows' in result) return { rows: result.rows as R[] };
      return { rows: [], numAffectedRows: BigInt(result.changes), insertId: BigInt(result.lastInsertRowid) };
    };
    this.createDriver = () => ({
      init: async () => {
        groups = await open();
      },
      releaseConnection: async () => {},
      // Waiting for the writer happens in beginTransaction.
      acquireConnection: async () => {
        const lease: Lease = {
          inUnit: false,
          executeQuery: (query) => execute(query, lease.inUnit),
          streamQuery: () => {
            throw new Error('the embedded database does not stream rows');
          },
        };
        return lease;
      },
      beginTransaction: async (connection) => {
        await groups.begin();
        (connection as Lease).inUnit = true;
      },
      commitTransaction: async (connection) => {
        (connection as Lease).inUnit = false;
        await groups.end(true);
      },
      // Also called after a failed commit, when the unit has already ended. The unit fails with its own error, once its
      // group's outcome is known: a refusal may rest on an earlier unit's write.
      rollbackTransaction: async (connection) => {
        const lease = connection as Lease;
        if (!lease.inUnit) return;
        lease.inUnit = false;
        await groups.end(false).catch(() => {});
      },
      destroy,
    });
  }
}
