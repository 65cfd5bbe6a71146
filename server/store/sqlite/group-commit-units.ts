import {
  DummyDriver, Transaction,
  type CompiledQuery, type ConnectionProvider, type DatabaseConnection, type Dialect, type Kysely, type QueryResult,
} from 'kysely';
import type { Database } from '../schema.ts';
import type { RunUnit } from '../units.ts';
import { executeDirectlyWith } from '../compiled-query.ts';
import type { SqliteConnections } from './group-commit-dialect.ts';
import { runStatement } from './run-statement.ts';

export const UNIT_ENDED = 'a statement of a unit of work that has ended';

/**
 * One unit's handle on the writer: every statement runs at once on it (inside the unit's savepoint), until the unit
 * ends; a statement its code sends after that is refused rather than run inside another unit.
 */
class UnitConnection implements ConnectionProvider, DatabaseConnection {
  open = true;

  constructor(private readonly connections: SqliteConnections) {}

  provideConnection<T>(consumer: (connection: DatabaseConnection) => Promise<T>): Promise<T> {
    return consumer(this);
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      if (!this.open) throw new Error(UNIT_ENDED);
      return Promise.resolve(runStatement<R>(this.connections.writer.prepare(query.sql), query.parameters));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async *streamQuery(): AsyncIterableIterator<never> {
    throw new Error('a unit of work does not stream');
  }
}

/**
 * Units of work on the embedded database as units of its group commit, without Kysely's transaction machinery:
 * per unit Kysely leases a connection, serializes its statements through a provider of its own and wraps the
 * executor to assert the transaction is open, which cost more CPU than a payment's statements. Here a unit waits for
 * its turn, gets a handle whose statements (compiled ones directly) run on the writer, and ends: kept or undone,
 * answered once its group is on disk.
 */
export function groupCommitUnits(root: Kysely<Database>, dialect: Dialect, connections: SqliteConnections): RunUnit {
  const executor = root.getExecutor();
  const props = { config: { dialect }, dialect, driver: new DummyDriver() };
  return async (work) => {
    await connections.groups.begin();
    const connection = new UnitConnection(connections);
    const transaction = new Transaction<Database>({ ...props, executor: executor.withConnectionProvider(connection) });
    executeDirectlyWith(transaction, (query) => connection.executeQuery(query));
    let result;
    try {
      result = await work(transaction);
    } catch (error) {
      connection.open = false;
      await connections.groups.end(false);
      throw error;
    }
    connection.open = false;
    await connections.groups.end(true);
    return result;
  };
}
