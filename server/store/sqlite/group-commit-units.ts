import {
  DummyDriver, Transaction,
  type CompiledQuery, type ConnectionProvider, type DatabaseConnection, type Dialect, type Kysely, type QueryResult,
} from 'kysely';
import type { Database, Executor } from '../schema.ts';
import type { RunUnit } from '../units.ts';
import { EXECUTE_DIRECTLY } from '../compiled-query.ts';
import type { SqliteConnections } from './group-commit-dialect.ts';

export const UNIT_ENDED = 'a statement of a unit of work that has ended';

/** The writer, as Kysely sees it while a unit runs: every statement runs at once, in the running unit's turn. */
class WriterConnection implements ConnectionProvider, DatabaseConnection {
  /** A unit is running. */
  open = false;

  constructor(private readonly connections: SqliteConnections) {}

  provideConnection<T>(consumer: (connection: DatabaseConnection) => Promise<T>): Promise<T> {
    return consumer(this);
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      if (!this.open) throw new Error(UNIT_ENDED);
      return Promise.resolve(this.connections.groups.run<R>(query.sql, query.parameters));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async *streamQuery(): AsyncIterableIterator<never> {
    throw new Error('a unit of work does not stream');
  }
}

/**
 * One unit's handle: the queries it builds, and the compiled ones it runs, go to the writer while the unit runs; a
 * handle kept past its unit is refused, also while a later unit runs, rather than write inside that unit. All units
 * share one Kysely transaction object: made for each unit, it cost more than a payment's statements (its
 * constructors, and the shapes they leave V8 to look up).
 */
class UnitHandle implements Executor {
  open = true;

  constructor(
    private readonly shared: Transaction<Database>,
    private readonly connection: WriterConnection,
  ) {}

  get isTransaction(): true {
    return true;
  }

  get selectFrom(): Executor['selectFrom'] {
    return this.builder('selectFrom');
  }

  get insertInto(): Executor['insertInto'] {
    return this.builder('insertInto');
  }

  get updateTable(): Executor['updateTable'] {
    return this.builder('updateTable');
  }

  get deleteFrom(): Executor['deleteFrom'] {
    return this.builder('deleteFrom');
  }

  getExecutor(): ReturnType<Executor['getExecutor']> {
    return this.live().getExecutor();
  }

  [EXECUTE_DIRECTLY](query: CompiledQuery): Promise<QueryResult<unknown>> {
    if (!this.open) return Promise.reject(new Error(UNIT_ENDED));
    return this.connection.executeQuery(query);
  }

  /** The shared transaction's query builder `name`, while the unit runs. */
  private builder<K extends 'selectFrom' | 'insertInto' | 'updateTable' | 'deleteFrom'>(name: K): Executor[K] {
    const db = this.live();
    return (db[name] as (...args: unknown[]) => unknown).bind(db) as Executor[K];
  }

  private live(): Transaction<Database> {
    if (!this.open) throw new Error(UNIT_ENDED);
    return this.shared;
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
  const connection = new WriterConnection(connections);
  const props = { config: { dialect }, dialect, driver: new DummyDriver() };
  const shared = new Transaction<Database>({ ...props, executor: root.getExecutor().withConnectionProvider(connection) });
  return async (work) => {
    await connections.groups.begin();
    const handle = new UnitHandle(shared, connection);
    connection.open = true;
    let result;
    try {
      result = await work(handle);
    } catch (error) {
      handle.open = connection.open = false;
      await connections.groups.end(false);
      throw error;
    }
    handle.open = connection.open = false;
    await connections.groups.end(true);
    return result;
  };
}
