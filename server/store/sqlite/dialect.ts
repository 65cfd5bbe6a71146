import type { Database as Reader, Statement } from 'better-sqlite3';
import {
  SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler,
  type CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type Kysely, type QueryResult,
} from 'kysely';
import type { GroupCommit } from './group-commit.ts';
import type { WriterThread } from './writer-thread.ts';

/** The embedded database's connections: the writer's thread and its groups, and a read-only connection on this thread. */
export interface SqliteConnections {
  writer: WriterThread;
  groups: GroupCommit;
  /** `query_only`: reads outside a unit of work run here, on the last commit, never waiting for the writer. */
  reader: Reader;
  /** After both connections are closed (removes a `memory` database's files). */
  afterClose: () => void;
}

/**
 * Kysely's SQLite dialect with a driver of our own: a Kysely transaction is a unit of the group commit (every
 * statement on the writer); outside one, a read runs on the reader and a write is a unit of its own.
 */
export class SqliteGroupCommitDialect implements Dialect {
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
  /** The reader's prepared statements by SQL text: Kysely's own driver would prepare each statement at every run. */
  private readonly reads = new Map<string, Statement | null>();

  constructor(private readonly connections: SqliteConnections) {}

  async init(): Promise<void> {}

  // A connection only routes statements: waiting for the writer happens in beginTransaction.
  async acquireConnection(): Promise<DatabaseConnection> {
    return new Lease(this.connections, this.reads);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await this.connections.groups.begin();
    (connection as Lease).inUnit = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as Lease).inUnit = false;
    await this.connections.groups.end(true);
  }

  // Also called after a failed commit, when the unit has already ended. The unit fails with its own error, once its
  // group's outcome is known: a refusal may rest on an earlier unit's write.
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    if (!lease.inUnit) return;
    lease.inUnit = false;
    await this.connections.groups.end(false).catch(() => {});
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    await this.connections.groups.close();
    await this.connections.writer.close();
    this.connections.reader.close();
    this.connections.afterClose();
  }
}

class Lease implements DatabaseConnection {
  inUnit = false;

  constructor(
    private readonly connections: SqliteConnections,
    private readonly reads: Map<string, Statement | null>,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { writer, groups } = this.connections;
    if (this.inUnit) return writer.run<R>(query.sql, query.parameters);
    const read = this.readStatement(query);
    if (read) return { rows: read.all(query.parameters) as R[] };
    return groups.runAlone(() => writer.run<R>(query.sql, query.parameters));
  }

  // eslint-disable-next-line require-yield
  async *streamQuery(): AsyncIterableIterator<never> {
    throw new Error('the embedded database does not stream rows');
  }

  /** The statement on the reader, if the query only reads. */
  private readStatement(query: CompiledQuery): Statement | null {
    const kind = query.query.kind;
    if (kind !== 'SelectQueryNode' && kind !== 'RawNode') return null;
    let statement = this.reads.get(query.sql);
    if (statement === undefined) {
      try {
        statement = this.connections.reader.prepare(query.sql);
        statement = statement.reader && statement.readonly ? statement : null;
      } catch {
        // Not a statement the reader can run (a table an open group is creating): the writer runs it.
        return null;
      }
      if (this.reads.size >= 500) this.reads.clear();
      this.reads.set(query.sql, statement);
    }
    return statement;
  }
}
