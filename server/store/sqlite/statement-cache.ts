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
  ) {}

  prepare(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement) {
      // Map keeps insertion order: re-inserting marks it most recently used.
      this.statements.delete(sql);
    } else {
      statement = this.database.prepare(sql);
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
