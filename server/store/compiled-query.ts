import type { CompiledQuery, Compilable } from 'kysely';
import type { Executor } from './schema.ts';

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
  return async (db: Executor, ...params: P): Promise<R[]> => {
    const { query, slots } = templateFor(db, params.length);
    const parameters = query.parameters.map((value, i) => (slots[i] === undefined ? value : params[slots[i]!]));
    return (await db.executeQuery<R>({ ...query, parameters })).rows;
  };
}
