import type { Insertable } from 'kysely';
import type { Dialect, EventsTable, Executor, TransactionStatus } from './schema.ts';
import type { NewTransaction, Transaction } from './transactions.ts';
import type { OutboxCounter } from './events.ts';
import { withChainedInserts, type ChainedInsert } from './chained-inserts.ts';
import { claimHeld, unlessClaimLost, withAnswerStored, withHeldClaim, type AnswerSeal } from './idempotency-keys.ts';
import type { LedgerEntry } from '../domain/ledger.ts';

export interface GuardedChange {
  merchantId: string;
  id: string;
  /** What the decision read: the change applies only if the row still reads so… */
  seen: Pick<Transaction, 'status' | 'amount' | 'settled_at'>;
  /** …and its refunded amount is at most this (`decideRefund`'s `refundedAtMost`; what was read, elsewhere). */
  refundedAtMost: number;
  changes: { status?: TransactionStatus; addRefunded?: number };
  /** Rows written with the change, or not at all: the refund, void or sale it makes and its outbox events. */
  transactions: NewTransaction[];
  events: Insertable<EventsTable>[];
  /** The ledger entries of the money it moves (domain/ledger.ts), written with it. */
  entries: LedgerEntry[];
  /** A keyed request's answer, stored by the same statement (PostgreSQL; on SQLite the request's unit stores it). */
  seal?: AnswerSeal | undefined;
}

/**
 * A change decided on an unlocked read (read, decide in `server/domain/`, write), instead of a row lock held across
 * round trips. On PostgreSQL it is one statement of data-modifying CTEs: the conditional UPDATE, and INSERTs that
 * select from its RETURNING (chained-inserts.ts), so they write only if it matched; the statement commits as a
 * whole. On SQLite the same statements run in the caller's unit of work (`Store.guardedChange`), the UPDATE first.
 * False when the row changed since it was read (or is gone): nothing was written, and the caller reads again.
 */
export class GuardedChangeRepository {
  private readonly db: Executor;
  private readonly dialect: Dialect;
  private readonly outboxWritten: OutboxCounter;

  constructor(
    db: Executor,
    dialect: Dialect,
    outboxWritten: OutboxCounter,
  ) {
    this.db = db;
    this.dialect = dialect;
    this.outboxWritten = outboxWritten;
  }

  async apply(change: GuardedChange): Promise<boolean> {
    const written = this.dialect === 'postgres' ? await this.asOneStatement(change) : await this.inTurn(change);
    if (written) this.outboxWritten.count += change.events.length;
    return written;
  }

  private update({ merchantId, id, seen, refundedAtMost, changes: { status, addRefunded }, seal }: GuardedChange) {
    const query = this.db
      .updateTable('transactions')
      .set((eb) => ({ ...(status ? { status } : {}), ...(addRefunded ? { refunded_amount: eb('refunded_amount', '+', addRefunded) } : {}) }))
      .where('id', '=', id)
      .where('merchant_id', '=', merchantId)
      .where('status', '=', seen.status)
      .where('amount', '=', seen.amount)
      .where('refunded_amount', '<=', refundedAtMost)
      .where('settled_at', seen.settled_at === null ? 'is' : '=', seen.settled_at);
    return seal ? query.where(claimHeld) : query;
  }

  private async asOneStatement(change: GuardedChange): Promise<boolean> {
    const inserts: ChainedInsert[] = [
      ...change.transactions.map((row) => ({ table: 'transactions' as const, row })),
      ...change.events.map((row) => ({ table: 'events' as const, row })),
      ...change.entries.map((row) => ({ table: 'ledger_entries' as const, row })),
    ];
    const { seal } = change;
    const changed = withHeldClaim(this.db, seal).with('changed', () => this.update(change).returning('id'));
    const written = withAnswerStored(withChainedInserts(changed, 'changed', inserts), seal, `insert_${inserts.length - 1}`);
    return unlessClaimLost(this.db, seal, (await written.selectFrom('changed').select('id').execute()).length === 1);
  }

  private async inTurn(change: GuardedChange): Promise<boolean> {
    if (!this.db.isTransaction) throw new Error('on SQLite a guarded change runs inside a unit of work');
    if (change.seal) throw new Error("on SQLite a keyed request's unit stores its answer");
    const updated = await this.update(change).executeTakeFirst();
    if (updated.numUpdatedRows !== 1n) return false;
    for (const row of change.transactions) await this.db.insertInto('transactions').values(row).execute();
    for (const row of change.events) await this.db.insertInto('events').values(row).execute();
    if (change.entries.length > 0) await this.db.insertInto('ledger_entries').values(change.entries).execute();
    return true;
  }
}

