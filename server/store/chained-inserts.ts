import type { QueryCreator } from 'kysely';
import type { Database } from './schema.ts';

type Table = 'transactions' | 'events' | 'messages' | 'payment_requests';
export type ChainedInsert = { table: Table; row: object };

/** A query that CTEs can be added to (Kysely's `with` of a query creator). */
interface WithCtes {
  with(name: string, make: (db: QueryCreator<Database>) => unknown): WithCtes;
}

/**
 * PostgreSQL: adds one CTE per row to `query`, each an `INSERT … SELECT` from the CTE before it (`after` for the
 * first), so the rows are written only if `after` returned a row, all in the one statement, and in this order: the
 * sub-statements of a statement run in no set order but a data dependency (each row's `seq` is drawn after the last).
 * PostgreSQL types each parameter from the column it is inserted into.
 */
export function withChainedInserts<Q>(query: Q, after: string, inserts: ChainedInsert[]): Q {
  let chained = query as unknown as WithCtes;
  inserts.forEach(({ table, row }, i) => {
    const from = (i === 0 ? after : `insert_${i - 1}`) as 'transactions';
    chained = chained.with(`insert_${i}`, (db) =>
      db
        .insertInto(table)
        .columns(Object.keys(row) as never)
        .expression(db.selectFrom(from).select((eb) => Object.entries(row).map(([column, value]) => eb.val(value).as(column)) as never))
        // Every table here has an `id`: the next insert selects from it.
        .returning('id' as never),
    );
  });
  return chained as unknown as Q;
}
