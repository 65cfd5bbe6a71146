import type { Database, Statement } from 'better-sqlite3';

/**
 * Prepared statements of one connection, keyed by their SQL text: preparing costs more than running a small
 * query, and Kysely's SQLite driver would prepare every statement on every query. Keeps the most recent `size`.
 */
export class StatementCache {
  private readonly statements = new Map<string, Statement>();

  constructor(
    readonly database: Database,
    private readonly size = 256,
    /** Told of every run of a statement from here, with its parameters (the bench's floor records writes so). */
    private readonly trace?: (sql: string, parameters: readonly unknown[]) => void,
  ) {}

  prepare(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement) {
      // Map keeps insertion order: re-inserting marks it most recently used.
      this.statements.delete(sql);
    } else {
      statement = this.database.prepare(sql);
      if (this.trace) statement = traced(statement, this.trace);
      if (this.statements.size >= this.size) this.statements.delete(this.statements.keys().next().value!);
    }
    this.statements.set(sql, statement);
    return statement;
  }

  close(): void {
    this.statements.clear();
    this.database.close();
  }
}

/** `statement`, telling `trace` of each run first. */
function traced(statement: Statement, trace: (sql: string, parameters: readonly unknown[]) => void): Statement {
  const runs = new Set<PropertyKey>(['run', 'get', 'all', 'iterate']);
  return new Proxy(statement, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (!runs.has(property)) return value.bind(target);
      return (...parameters: unknown[]) => {
        trace(target.source, parameters.length === 1 && Array.isArray(parameters[0]) ? parameters[0] : parameters);
        return value.apply(target, parameters);
      };
    },
  });
}
