import type { Database as Reader, Statement } from 'better-sqlite3';
import { SqliteDialect, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult } from 'kysely';
import type { GroupCommit } from './group-commit.ts';
import type { WriterThread } from './writer-thread.ts';

/** The embedded database's connections: the writer's thread and its groups, and a read-only connection on this thread. */
export interface SqliteConnections {
  writer: WriterThread;
  groups: GroupCommit;
  reader: Reader; // query_only: reads outside a unit of work run here, on the last commit, never waiting for the writer
  afterClose: () => void; // removes a `memory` database's files
}

/**
 * Kysely's SQLite dialect with a driver of our own: a Kysely transaction is a unit of the group commit (every
 * statement on the writer); outside one, a read runs on the reader and a write is a unit of its own.
 */
export class SqliteGroupCommitDialect extends SqliteDialect {
  private readonly connections: SqliteConnections;

  constructor(connections: SqliteConnections) {
    super({ database: connections.reader });
    this.connections = connections;
  }

  override createDriver(): Driver {
    return new GroupCommitDriver(this.connections);
  }
}

class GroupCommitDriver implements Driver {
  /** The reader's prepared statements by SQL text (null: not a read): Kysely's own driver prepares at every run. */
  private readonly reads = new Map<string, Statement | null>();
  private readonly connections: SqliteConnections;

  constructor(connections: SqliteConnections) {
    this.connections = connections;
  }

  async init(): Promise<void> {}
  async releaseConnection(): Promise<void> {}

  // Waiting for the writer happens in beginTransaction.
  async acquireConnection(): Promise<DatabaseConnection> {
    const lease: Lease = {
      inUnit: false,
      executeQuery: (query) => this.execute(query, lease.inUnit),
      streamQuery: () => {
        throw new Error('the embedded database does not stream rows');
      },
    };
    return lease;
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

  async destroy(): Promise<void> {
    await this.connections.groups.close();
    await this.connections.writer.close();
    this.connections.reader.close();
    this.connections.afterClose();
  }

  async execute<R>(query: CompiledQuery, inUnit: boolean): Promise<QueryResult<R>> {
    const { writer, groups } = this.connections;
    if (inUnit) return writer.run<R>(query.sql, query.parameters);
    const read = this.readStatement(query);
    if (read) return { rows: read.all(query.parameters) as R[] };
    await groups.begin();
    let result: QueryResult<R>;
    try {
      result = writer.run<R>(query.sql, query.parameters);
    } catch (error) {
      await groups.end(false).catch(() => {});
      throw error;
    }
    await groups.end(true);
    return result;
  }

  private readStatement(query: CompiledQuery): Statement | null {
    if (query.query.kind !== 'SelectQueryNode' && query.query.kind !== 'RawNode') return null;
    let statement = this.reads.get(query.sql);
    if (statement !== undefined) return statement;
    try {
      statement = this.connections.reader.prepare(query.sql);
    } catch {
      return null; // Not one the reader can run (a table an open group is creating): the writer runs it.
    }
    if (this.reads.size >= 500) this.reads.clear();
    this.reads.set(query.sql, statement.reader && statement.readonly ? statement : null);
    return this.reads.get(query.sql)!;
  }
}

/** What Kysely takes for a connection: it only routes statements, to the writer while a unit of work runs. */
interface Lease extends DatabaseConnection {
  inUnit: boolean;
}
