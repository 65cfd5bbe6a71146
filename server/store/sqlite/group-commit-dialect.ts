import type { Statement } from 'better-sqlite3';
import {
  SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler,
  type CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type Kysely, type QueryResult,
} from 'kysely';
import type { GroupCommit } from './group-commit.ts';
import { iterateRows, runStatement } from './run-statement.ts';
import type { StatementCache } from './statement-cache.ts';

/** The two connections to one SQLite file in WAL mode, and the group commit of the writing one. */
export interface SqliteConnections {
  writer: StatementCache;
  /** Read-only (`query_only`): reads outside a unit of work run here, on the last committed state, never waiting for a group. */
  reader: StatementCache;
  groups: GroupCommit;
}

/**
 * Kysely's SQLite dialect with our own driver. Each Kysely transaction is one unit of a group commit; a statement
 * outside a transaction is a unit of its own when it writes, and runs at once on the reading connection when it
 * only reads.
 */
export class GroupCommitSqliteDialect implements Dialect {
  constructor(private readonly connections: SqliteConnections) {}

  createAdapter() {
    return new SqliteAdapter();
  }

  createDriver(): Driver {
    return new GroupCommitDriver(this.connections);
  }

  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
}

class GroupCommitDriver implements Driver {
  constructor(private readonly connections: SqliteConnections) {}

  async init(): Promise<void> {}

  // Nothing to wait for: a lease only routes its statements. Waiting for the writer happens in beginTransaction.
  async acquireConnection(): Promise<DatabaseConnection> {
    return new Lease(this.connections);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await this.connections.groups.begin();
    (connection as Lease).inUnit = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as Lease).inUnit = false;
    await this.connections.groups.end(true);
  }

  // Also called after a failed commit, when the unit has already ended.
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    if (!lease.inUnit) return;
    lease.inUnit = false;
    await this.connections.groups.end(false);
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    await this.connections.groups.close();
    this.connections.reader.close();
    this.connections.writer.close();
  }
}

/** What Kysely takes for a connection: inside a unit it is the writer; outside, it sends each statement where it belongs. */
class Lease implements DatabaseConnection {
  inUnit = false;

  constructor(private readonly connections: SqliteConnections) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.inUnit) return executeOutsideUnit<R>(this.connections, query);
    try {
      return Promise.resolve(this.connections.groups.run<R>(query.sql, query.parameters));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const statement = this.inUnit ? this.connections.groups.prepare(query.sql) : readStatement(this.connections, query);
    if (!statement?.readonly) throw new Error('only reads can be streamed');
    for (const row of iterateRows<R>(statement, query.parameters)) yield { rows: [row] };
  }
}

/** A statement outside any unit of work: a read runs at once on the reading connection, a write is a unit of its own. */
export function executeOutsideUnit<R>(connections: SqliteConnections, query: CompiledQuery): Promise<QueryResult<R>> {
  try {
    const read = readStatement(connections, query);
    if (read) return Promise.resolve(runStatement<R>(read, query.parameters));
    return connections.groups.runAlone(() => connections.groups.run<R>(query.sql, query.parameters));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The statement on the reading connection, if it only reads and that connection can run it. */
function readStatement(connections: SqliteConnections, query: CompiledQuery): Statement | undefined {
  const kind = query.query.kind;
  if (kind !== 'SelectQueryNode' && kind !== 'RawNode') return undefined;
  let statement: Statement;
  try {
    statement = connections.reader.prepare(query.sql);
  } catch {
    // The reader may not know yet of a table an open group is creating: the writer, which does, runs it.
    return undefined;
  }
  return statement.readonly ? statement : undefined;
}
