import type { Kysely } from 'kysely';
import type { Database, Executor } from './schema.ts';

/** Runs `work` as one unit of work: its statements, through the handle it is given, commit together or not at all. */
export type RunUnit = <T>(work: (db: Executor) => Promise<T>) => Promise<T>;

/** A unit is a Kysely transaction: on PostgreSQL a connection of the pool, BEGIN … COMMIT; on SQLite a savepoint of a group commit (sqlite/group-commit.ts). */
export const transactionUnits =
  (db: Kysely<Database>): RunUnit =>
  (work) =>
    db.transaction().execute(work);
