import type { Database as Reader, Statement } from 'better-sqlite3';
import { SqliteDialect, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult } from 'kysely';
import type { GroupCommit } from './group-commit.ts';
import type { Result } from './writer-thread.ts';

/**
 * Kysely's SQLite dialect with a driver of our own: a Kysely transaction is a unit of the group commit (every
 * statement on the writer); outside one, a read runs on the reader and a write is a unit of its own.
 * `reader` is query_only: reads outside a unit run there, on the last commit, never waiting for the writer.
 */
export class SqliteGroupCommitDialect extends SqliteDialect {
  private readonly driver: GroupCommitDriver;

  constructor(groups: GroupCommit, reader: Reader, afterClose: () => void) {
    super({ database: reader });
    this.driver = new GroupCommitDriver(groups, reader, afterClose);
  }

  override createDriver(): Driver {
    return this.driver;
  }
}

/** What Kysely takes for a connection: it only routes statements, to the writer while a unit of work runs. */
type Lease = DatabaseConnection & { inUnit: boolean };

class GroupCommitDriver implements Driver {
  /** The reader's prepared statements by SQL text (null: not a read): Kysely's own driver prepares at every run. */
  private readonly reads = new Map<string, Statement | null>();
  private readonly groups: GroupCommit;
  private readonly reader: Reader;
  private readonly afterClose: () => void; // removes a `memory` database's files

  constructor(groups: GroupCommit, reader: Reader, afterClose: () => void) {
    this.groups = groups;
    this.reader = reader;
    this.afterClose = afterClose;
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
    await this.groups.begin();
    (connection as Lease).inUnit = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as Lease).inUnit = false;
    await this.groups.end(true);
  }

  // Also called after a failed commit, when the unit has already ended. The unit fails with its own error, once its
  // group's outcome is known: a refusal may rest on an earlier unit's write.
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    if (!lease.inUnit) return;
    lease.inUnit = false;
    await this.groups.end(false).catch(() => {});
  }

  async destroy(): Promise<void> {
    await this.groups.close();
    this.reader.close();
    this.afterClose();
  }

  private async execute<R>(query: CompiledQuery, inUnit: boolean): Promise<QueryResult<R>> {
    const read = inUnit ? null : this.readStatement(query);
    if (read) return { rows: read.all(query.parameters) as R[] };
    const result: Result = inUnit ? await this.groups.run(query.sql, query.parameters) : ((await this.groups.unit([{ sql: query.sql, parameters: query.parameters }])) as Result[])[0]!;
    if ('rows' in result) return { rows: result.rows as R[] };
    return { rows: [], numAffectedRows: BigInt(result.changes), insertId: BigInt(result.lastInsertRowid) };
  }

  private readStatement(query: CompiledQuery): Statement | null {
    if (query.query.kind !== 'SelectQueryNode' && query.query.kind !== 'RawNode') return null;
    let statement = this.reads.get(query.sql);
    if (statement !== undefined) return statement;
    try {
      statement = this.reader.prepare(query.sql);
    } catch {
      return null; // Not one the reader can run (a table an open group is creating): the writer runs it.
    }
    if (this.reads.size >= 500) this.reads.clear();
    this.reads.set(query.sql, statement.reader && statement.readonly ? statement : null);
    return this.reads.get(query.sql)!;
  }
}
