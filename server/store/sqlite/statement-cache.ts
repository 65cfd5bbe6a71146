import type { Database, Statement } from 'better-sqlite3';

/**
 * Prepared statements of one connection, keyed by their SQL text: preparing costs more than running a small
 * query, and Kysely's SQLite driver would prepare every statement on every query. Keeps the most recent `size`.
 */
export class StatementCache {
  private readonly statements = new Map<string, { statement: Statement; lastUse: number }>();
  private uses = 0;

  constructor(
    readonly database: Database,
    private readonly size = 256,
    /** Told of every run of a statement from here, with its parameters (the bench's floor records writes so). */
    private readonly trace?: (sql: string, parameters: readonly unknown[]) => void,
  ) {}

  prepare(sql: string): Statement {
    const kept = this.statements.get(sql);
    // A hit only notes its use: moving it to the Map's end (delete, set) on every statement made V8 rehash the Map.
    if (kept) {
      kept.lastUse = ++this.uses;
      return kept.statement;
    }
    let statement = this.database.prepare(sql);
    if (this.trace) statement = traced(statement, this.trace);
    if (this.statements.size >= this.size) this.statements.delete(this.leastRecentlyUsed());
    this.statements.set(sql, { statement, lastUse: ++this.uses });
    return statement;
  }

  /** Only when full: a service runs far fewer distinct statements than it keeps. */
  private leastRecentlyUsed(): string {
    let oldest: string | undefined;
    let oldestUse = Infinity;
    for (const [sql, { lastUse }] of this.statements) {
      if (lastUse < oldestUse) [oldest, oldestUse] = [sql, lastUse];
    }
    return oldest!;
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
