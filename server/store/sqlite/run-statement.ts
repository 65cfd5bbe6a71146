import type { Statement } from 'better-sqlite3';
import type { QueryResult } from 'kysely';

/** Runs a prepared statement as Kysely expects: the rows of a statement that returns them, else what it changed. */
export function runStatement<R>(statement: Statement, parameters: readonly unknown[]): QueryResult<R> {
  if (statement.reader) return { rows: statement.all(parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}
