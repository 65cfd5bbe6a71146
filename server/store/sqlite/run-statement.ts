import type { Statement } from 'better-sqlite3';
import type { QueryResult } from 'kysely';

type Row = Record<string, unknown>;
type MakeRow = (values: unknown[]) => Row;

/**
 * better-sqlite3 binds an array argument by reading its elements through V8's object API, and arguments given one
 * by one straight from the call: a 22-value insert in a loop, 3.3 against 2.9 µs. Past this many values a spread
 * could meet the engine's limit on arguments, so a long list goes as an array.
 */
const SPREAD_AT_MOST = 1000;

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
  const rows = parameters.length <= SPREAD_AT_MOST ? statement.all(...parameters) : statement.all(parameters);
  return (make ? (rows as unknown[][]).map(make) : rows) as R[];
}

/** `readRows`, one row at a time. */
export function* iterateRows<R>(statement: Statement, parameters: readonly unknown[]): IterableIterator<R> {
  const make = rowMaker(statement);
  for (const row of parameters.length <= SPREAD_AT_MOST ? statement.iterate(...parameters) : statement.iterate(parameters)) yield (make ? make(row as unknown[]) : row) as R;
}

/** Runs a prepared statement as Kysely expects: the rows of a statement that returns them, else what it changed. */
export function runStatement<R>(statement: Statement, parameters: readonly unknown[]): QueryResult<R> {
  if (statement.reader) return { rows: readRows<R>(statement, parameters) };
  const { changes, lastInsertRowid } = parameters.length <= SPREAD_AT_MOST ? statement.run(...parameters) : statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}
