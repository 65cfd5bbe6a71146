import type { CompiledQuery, Compilable, QueryResult } from 'kysely';
import type { Database, Executor } from './schema.ts';

type Execute = (query: CompiledQuery) => Promise<QueryResult<unknown>>;
/** A handle's way to run a compiled query without Kysely, called as its method. */
export const EXECUTE_DIRECTLY = Symbol('runs a compiled query without Kysely');

/**
 * Compiled queries made on `db` go straight to `execute`: on the embedded database a statement runs at once, and
 * Kysely's connection handling would cost more than the statement. Used for the database outside units of work;
 * each unit's handle has the method itself (sqlite/group-commit-units.ts).
 */
export function executeDirectlyWith(db: object, execute: Execute): void {
  Object.defineProperty(db, EXECUTE_DIRECTLY, { value: execute });
}

const MARKER = '\u0000paykit-parameter-';

interface Template<R> {
  query: CompiledQuery<R>;
  /** For each compiled parameter, the index of the call's value that goes there, or undefined for a constant. */
  slots: (number | undefined)[];
}

/**
 * A query whose shape never changes, built and compiled once per SQL dialect: later calls only swap in their
 * values. Building and compiling a Kysely query costs more than SQLite takes to run a small one.
 * `build` must use each parameter as a plain bound value (in where, values, limit…), never to choose the
 * query's shape; a parameter that does not appear among the compiled values is refused at first use.
 */
export function compiledQuery<P extends unknown[], R>(build: (db: Executor, ...params: P) => Compilable<R>) {
  const run = compiledStatement(build);
  return async (db: Executor, ...params: P): Promise<R[]> => (await run(db, ...params)).rows;
}

/** `compiledQuery`, answering what the statement did as well (changed rows), not only the rows it returned. */
export function compiledStatement<P extends unknown[], R>(build: (db: Executor, ...params: P) => Compilable<R>) {
  const run = withValues(build);
  return (db: Executor, ...params: P): Promise<QueryResult<R>> => run(db, params);
}

type RunWithValues<R = unknown> = (db: Executor, values: readonly unknown[]) => Promise<QueryResult<R>>;

/** The statement `build` makes, compiled once per dialect, run with `values` for its parameters. */
function withValues<P extends unknown[], R>(build: (db: Executor, ...params: P) => Compilable<R>): RunWithValues<R> {
  // The SQL text depends on the dialect (`?` or `$1`), which the adapter's class names.
  const templates = new Map<unknown, Template<R>>();
  const templateFor = (db: Executor, arity: number): Template<R> => {
    const dialect = db.getExecutor().adapter.constructor;
    let template = templates.get(dialect);
    if (!template) {
      const markers = Array.from({ length: arity }, (_, i) => `${MARKER}${i}`) as P;
      const query = build(db, ...markers).compile();
      const slots = query.parameters.map((value) =>
        typeof value === 'string' && value.startsWith(MARKER) ? Number(value.slice(MARKER.length)) : undefined,
      );
      if (new Set(slots.filter((slot) => slot !== undefined)).size !== arity) {
        throw new Error('compiledQuery: every parameter must be a bound value of the query');
      }
      template = { query, slots };
      templates.set(dialect, template);
    }
    return template;
  };
  // Handles that run compiled queries directly are all the embedded database's: one template serves them all.
  let directTemplate: Template<R> | undefined;
  return (db, values) => {
    const direct = (db as { [EXECUTE_DIRECTLY]?: Execute })[EXECUTE_DIRECTLY];
    const { query, slots } = direct ? (directTemplate ??= templateFor(db, values.length)) : templateFor(db, values.length);
    const parameters = query.parameters.map((value, i) => (slots[i] === undefined ? value : values[slots[i]!]));
    const compiled = { ...query, parameters };
    // PostgreSQL has no such path, and goes through Kysely.
    return (direct ? direct.call(db, compiled) : db.getExecutor().executeQuery<R>(compiled)) as Promise<QueryResult<R>>;
  };
}

/**
 * An insert of a row into `table`, compiled once per dialect and set of columns (a row's defined fields, as Kysely
 * would insert them). Optionally ignores a row whose `conflictColumns` are taken. Answers how many rows it inserted.
 */
export function compiledInsert<T extends object>(table: keyof Database & string, conflictColumns?: readonly string[]) {
  const run = perColumnSet((columns) =>
    withValues((db: Executor, ...values: unknown[]) => {
      // The row's type is checked by the caller's signature; Kysely sees markers here.
      const insert = db.insertInto(table).values(Object.fromEntries(columns.map((column, i) => [column, values[i]])) as never);
      return conflictColumns ? insert.onConflict((oc) => oc.columns(conflictColumns as never).doNothing()) : insert;
    }),
  );
  return async (db: Executor, row: T): Promise<number> => {
    const result = await run(db, row as Record<string, unknown>, []);
    return Number(result.numAffectedRows ?? 0n);
  };
}

/** An update of the row of `table` with the given `id`, compiled once per dialect and set of changed columns. */
export function compiledUpdateById<T extends object>(table: keyof Database & string) {
  const run = perColumnSet((columns) =>
    withValues((db: Executor, ...values: unknown[]) =>
      db
        .updateTable(table)
        .set(Object.fromEntries(columns.map((column, i) => [column, values[i]])) as never)
        .where('id' as never, '=', values[columns.length] as never),
    ),
  );
  return async (db: Executor, id: string, changes: T): Promise<number> => {
    const result = await run(db, changes as Record<string, unknown>, [id]);
    return Number(result.numAffectedRows ?? 0n);
  };
}

/**
 * Runs the statement compiled for the defined fields of `fields` (as Kysely would write them), then `more` values.
 * Rows are written by a few places, each always with the same fields; the cache never grows without bound all the same.
 */
function perColumnSet(compile: (columns: string[]) => RunWithValues) {
  const byColumns = new Map<string, RunWithValues>();
  // Each place writes its rows with the same fields every time: most calls find the last call's statement.
  let last: { columns: string[]; run: RunWithValues } | undefined;
  return (db: Executor, fields: Record<string, unknown>, more: unknown[]): Promise<QueryResult<unknown>> => {
    if (!last || !definesExactly(fields, last.columns)) {
      const columns = Object.keys(fields).filter((column) => fields[column] !== undefined);
      const key = columns.join(',');
      let run = byColumns.get(key);
      if (!run) {
        run = compile(columns);
        if (byColumns.size < 32) byColumns.set(key, run);
      }
      last = { columns, run };
    }
    const { columns, run } = last;
    const values = new Array<unknown>(columns.length + more.length);
    for (let i = 0; i < columns.length; i++) values[i] = fields[columns[i]!];
    for (let i = 0; i < more.length; i++) values[columns.length + i] = more[i];
    return run(db, values);
  };
}

/** Whether the fields of `fields` that are defined are `columns`, in that order. */
function definesExactly(fields: Record<string, unknown>, columns: readonly string[]): boolean {
  let i = 0;
  for (const field of Object.keys(fields)) {
    if (fields[field] === undefined) continue;
    if (columns[i++] !== field) return false;
  }
  return i === columns.length;
}
