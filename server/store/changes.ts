import { sql, type CompiledQuery, type Insertable, type QueryCreator } from 'kysely';
import type { Database, EventsTable, Executor } from './schema.ts';
import type { RefusedDecision } from '../domain/refusals.ts';
import { claimLost, unanswered, type AnswerSeal } from './idempotency-keys.ts';
import type { Result, RunSteps } from './sqlite/writer-thread.ts';

/** A row a change inserts. */
export interface Row<T extends keyof Database = keyof Database> {
  table: T;
  row: Insertable<Database[T]>;
}
type Value = string | number | null;
/** The tables whose rows a decision reads and a guard then checks (a waiting ACH payment's entries: ledger.ts). */
type Guarded = 'transactions' | 'payment_requests' | 'payment_attempts' | 'ledger_entries' | 'disputes';

/**
 * What a decision read, checked where the change is written: an UPDATE of one row (or of a payment's few ledger
 * entries) that applies only while the row still reads as `where` says (and its `atMost` columns have not grown past
 * their bound), or a row that must insert without a conflict (an order id still free).
 */
export type Guard =
  | {
      table: Guarded;
      where: Record<string, Value>;
      atMost?: Record<string, number>;
      set: Record<string, Value>;
      add?: Record<string, number>;
    }
  | { insert: Row };

/**
 * A change decided in `server/domain/` on what a service read, as a value: its guards, the rows it writes (a money
 * change's ledger entries among them: store/ledger.ts's `entryRows`) and the outbox events it causes. The store alone
 * writes it, all or nothing: on PostgreSQL as one statement, on SQLite as one unit of the group commit. If a guard
 * no longer holds nothing is written, and the request reads and decides again, or is refused with `refusal` when the
 * decision cannot change (an order id is taken for good).
 */
export interface Change {
  guards: Guard[];
  rows: Row[];
  events: Insertable<EventsTable>[];
  refusal?: RefusedDecision | undefined;
}

/**
 * Writes `change` (and a keyed request's answer with it); false when a guard no longer holds. Throws a conflict when a
 * keyed request's claim was taken over by a retry meanwhile (idempotency-keys.ts).
 */
export async function writeChange(
  db: Executor,
  change: Change,
  seal: AnswerSeal | undefined,
  runSteps: RunSteps | undefined,
): Promise<boolean> {
  if (!runSteps) return asOneStatement(db, change, seal);
  // A keyed request's answer first: on SQLite, with one writer, a claim held at its step stays held to the end.
  const steps: Compiled[] = [
    ...(seal ? [{ ...answerStored(db, seal).compile(), guard: true }] : []),
    ...change.guards.map((guard) => ({ ...guarded(db, guard).compile(), guard: true })),
    ...inserts(change).map((row) =>
      db
        .insertInto(row.table)
        .values(row.row as never)
        .compile(),
    ),
  ];
  const lost = db.isTransaction
    ? await inTurn(db, steps)
    : await runSteps(steps.map(({ sql, parameters, guard }) => ({ sql, parameters, guard })));
  if (!('lost' in lost)) return true;
  if (seal && lost.lost === 0) throw claimLost();
  return false;
}

type Compiled = CompiledQuery & { guard?: boolean };

const inserts = (change: Change): Row[] => [
  ...change.rows,
  ...change.events.map((row) => ({ table: 'events' as const, row })),
];

/** In a Kysely transaction (a retry under lock): the steps one by one; the transaction is undone when a guard fails. */
async function inTurn(db: Executor, steps: Compiled[]): Promise<Result[] | { lost: number }> {
  for (const [i, step] of steps.entries()) {
    const { numAffectedRows } = await db.getExecutor().executeQuery(step);
    if (step.guard && !numAffectedRows) return { lost: i };
  }
  return [];
}

function guarded(db: Pick<QueryCreator<Database>, 'updateTable' | 'insertInto'>, guard: Guard, after?: string) {
  if ('insert' in guard) return insertRow(db, guard.insert, after).onConflict((oc) => oc.doNothing());
  const { table, where, atMost = {}, set, add = {} } = guard;
  const added = Object.entries(add).map(([column, n]) => [column, sql`${sql.ref(column)} + ${n}`]);
  let update = db.updateTable(table as 'transactions').set({ ...set, ...Object.fromEntries(added) } as never);
  for (const [column, value] of Object.entries(where))
    update = update.where(column as 'id', value === null ? 'is' : '=', value as string);
  for (const [column, n] of Object.entries(atMost)) update = update.where(column as 'amount', '<=', n);
  return after ? update.where(sql<boolean>`exists (select 1 from ${sql.table(after)})`) : update;
}

/**
 * `INSERT … VALUES`, or, after the CTE `after`, `INSERT … SELECT … FROM after LIMIT 1`: the row once if `after`
 * returned any (a guard over a payment's ledger entries returns one per entry).
 */
function insertRow(db: Pick<QueryCreator<Database>, 'insertInto'>, { table, row }: Row, after?: string) {
  if (!after) return db.insertInto(table).values(row as never);
  return db
    .insertInto(table)
    .columns(Object.keys(row) as never)
    .expression(
      (db as QueryCreator<Database>)
        .selectFrom(after as 'transactions')
        .select((eb) => Object.entries(row).map(([column, value]) => eb.val(value).as(column)) as never)
        .limit(1),
    );
}

/** The keyed request's answer on its claim, while the claim is still its own and unanswered. */
function answerStored(db: Pick<QueryCreator<Database>, 'updateTable'>, seal: AnswerSeal, after?: string) {
  const stored = db
    .updateTable('idempotency_keys')
    .set({ status_code: seal.statusCode, body: seal.body, locked_until: null })
    .where(unanswered(seal));
  return after ? stored.where(sql<boolean>`exists (select 1 from ${sql.table(after)})`) : stored;
}

/**
 * PostgreSQL: one statement of data-modifying CTEs, each reading the one before it, so that nothing is written unless
 * every guard matched, in a set order (the outbox's `seq`), committed as a whole without BEGIN and COMMIT. A keyed
 * request's statement first locks its own unanswered claim, so that no retry takes it over meanwhile, and ends by
 * storing its answer there. PostgreSQL types each parameter from the column it is inserted into.
 */
async function asOneStatement(db: Executor, change: Change, seal: AnswerSeal | undefined): Promise<boolean> {
  type Link = (q: QueryCreator<Database>, after: string | undefined) => { returning(column: unknown): unknown };
  const links: Link[] = [
    ...change.guards.map(
      (guard): Link =>
        (q, after) =>
          guarded(q, guard, after),
    ),
    ...inserts(change).map(
      (row): Link =>
        (q, after) =>
          insertRow(q, row, after),
    ),
    ...(seal ? [(q: QueryCreator<Database>, after: string | undefined) => answerStored(q, seal, after)] : []),
  ];
  let statement = (
    seal
      ? db.with('claim', (q) => q.selectFrom('idempotency_keys').select('key').where(unanswered(seal)).forUpdate())
      : db
  ) as QueryCreator<Database>;
  links.forEach((link, i) => {
    const after = i === 0 ? (seal ? 'claim' : undefined) : `link_${i - 1}`;
    statement = statement.with(
      `link_${i}`,
      (q) => link(q, after).returning(sql<number>`1`.as('written')) as never,
    ) as QueryCreator<Database>;
  });
  const written =
    (
      await statement
        .selectFrom(`link_${links.length - 1}` as 'transactions')
        .select(sql<number>`1`.as('written'))
        .execute()
    ).length > 0;
  if (written || !seal) return written;
  if (!(await db.selectFrom('idempotency_keys').select('key').where(unanswered(seal)).executeTakeFirst()))
    throw claimLost();
  return false;
}
