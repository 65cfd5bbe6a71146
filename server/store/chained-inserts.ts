import { sql, type InsertQueryBuilder, type InsertResult, type QueryCreator } from 'kysely';
import type { Database } from './schema.ts';

type Table = 'transactions' | 'events' | 'messages' | 'payment_requests' | 'merchant_orders' | 'ledger_entries';
export type ChainedInsert<T extends Table = Table> = { table: T; row: object };

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
    const from = i === 0 ? after : `insert_${i - 1}`;
    // The next insert selects from it: a row, whatever its table's columns (a ledger entry has no id).
    chained = chained.with(`insert_${i}`, (db) => insertSelecting(db, { table, row }, from).returning(sql<number>`1`.as('written')));
  });
  return chained as unknown as Q;
}

/** `INSERT INTO table (…) SELECT $…, … FROM from`: the row, once for each row the CTE `from` returned. */
export function insertSelecting<T extends Table>(db: Pick<QueryCreator<Database>, 'insertInto' | 'selectFrom'>, { table, row }: ChainedInsert<T>, from: string): InsertQueryBuilder<Database, T, InsertResult> {
  return db
    .insertInto(table)
    .columns(Object.keys(row) as never)
    .expression(db.selectFrom(from as 'transactions').select((eb) => Object.entries(row).map(([column, value]) => eb.val(value).as(column)) as never));
}
