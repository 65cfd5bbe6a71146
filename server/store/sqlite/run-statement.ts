import type { Statement } from 'better-sqlite3';
import type { QueryResult } from 'kysely';

type Row = Record<string, unknown>;
type MakeRow = (values: unknown[]) => Row;

/** Per reading statement: how its rows are made from arrays, or null where they cannot be (see `rowMaker`). */
const rowMakers = new WeakMap<Statement, MakeRow | null>();

/**
 * better-sqlite3 builds each row object one property at a time through V8's slow path (~0.4 µs a column); as arrays
 * (raw mode) made into objects by a function compiled for the statement's columns, a wide row costs a third less and
 * a list of ten rows two thirds less. The function is an object literal of the column names, so V8 gives every row
 * one shape. A name that is `__proto__` would set the prototype in a literal: such a statement keeps objects mode.
 */
function rowMaker(statement: Statement): MakeRow | null {
  let make = rowMakers.get(statement);
  if (make === undefined) {
    const names = statement.columns().map((column) => column.name);
    make = names.includes('__proto__')
      ? null
      : (new Function('v', `return {${names.map((name, i) => `${JSON.stringify(name)}: v[${i}]`).join(', ')}};`) as MakeRow);
    if (make) statement.raw(true);
    rowMakers.set(statement, make);
  }
  return make;
}

/** The rows a reading statement returns, as objects keyed by column name. */
export function readRows<R>(statement: Statement, parameters: readonly unknown[]): R[] {
  const make = rowMaker(statement);
  if (!make) return statement.all(parameters) as R[];
  return (statement.all(parameters) as unknown[][]).map(make) as R[];
}

/** `readRows`, one row at a time. */
export function* iterateRows<R>(statement: Statement, parameters: readonly unknown[]): IterableIterator<R> {
  const make = rowMaker(statement);
  for (const row of statement.iterate(parameters)) yield (make ? make(row as unknown[]) : row) as R;
}

/** Runs a prepared statement as Kysely expects: the rows of a statement that returns them, else what it changed. */
export function runStatement<R>(statement: Statement, parameters: readonly unknown[]): QueryResult<R> {
  if (statement.reader) return { rows: readRows<R>(statement, parameters) };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}
