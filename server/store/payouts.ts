import { sql } from 'kysely';
import type { Dialect, Executor, PayoutSettingsTable, PayoutsTable } from './schema.ts';
import type { PayoutStatus } from '../domain/payouts.ts';
import { boundOf, keyOf, pageOf, type ListingKey, type Page, type PageStart } from './pages.ts';

export type Payout = Omit<PayoutsTable, 'seq'>;
export type PayoutSettings = Omit<PayoutSettingsTable, 'merchant_id'>;
/** Whose payouts a run looks at: every merchant's, one client's, or one merchant's. */
export interface PayoutScope {
  clientId?: string | undefined;
  merchantId?: string | undefined;
}

/** A merchant's payout account: its settings as changed (none: the defaults) and the bank account onboarding gave. */
export interface PayoutAccount {
  settings: PayoutSettings | undefined;
  onboardingLastFour: string;
  onboardingRoutingNumber: string;
}

const COLUMNS = [
  'id',
  'client_id',
  'merchant_id',
  'period',
  'amount',
  'entry_count',
  'status',
  'bank_last_four',
  'arrival_date',
  'created_at',
  'updated_at',
  'failure_code',
  'failure_message',
] as const;
const OPEN = sql.raw<boolean>(`"status" IN ('pending', 'in_transit')`);
const numbered = <T extends { amount: number | string }>(row: T) => ({ ...row, amount: Number(row.amount) });

/** Payouts (migration 020): at most one per merchant and period, each sweeping the entries whose sum it is. */
/**
 * The entries a payout sweeps per statement, on both databases: each statement stays far inside PostgreSQL's
 * statement timeout (postgres-pool.ts; one UPDATE of 20,000 entries passed it under load, so a large merchant's payout
 * could never be made), and SQLite's writer serves other units between steps. The unit commits all steps or none.
 */
const SWEEP_STEP = 1_000;
/** PostgreSQL: the class of the advisory locks that let one process at a time sweep a merchant's entries. */
const SWEEP_LOCK = 45;

export class PayoutRepository {
  private readonly db: Executor;
  private readonly dialect: Dialect;

  constructor(db: Executor, dialect: Dialect) {
    this.db = db;
    this.dialect = dialect;
  }

  /**
   * Inside a unit of work: writes the payout, then sweeps into it every unswept entry of its merchant available by
   * `today`, and sets its amount to their sum, read back from the swept entries themselves (an entry another writer
   * committed meanwhile is swept and counted, or neither). A payout of a period the merchant already has (another
   * process's run made it), or of a merchant whose entries another process is sweeping now, is not written, and
   * nothing is swept: undefined. The caller undoes a payout whose sum is not positive (`undo`).
   */
  async sweep(payout: Payout, today: string): Promise<{ amount: number; count: number } | undefined> {
    if (!this.db.isTransaction) throw new Error('a payout sweeps its entries inside a unit of work');
    // PostgreSQL: one process at a time sweeps a merchant; another does not wait (a sweep may outlast the statement
    // timeout), it leaves the merchant to the one sweeping. SQLite's writer runs one unit at a time anyway.
    if (this.dialect === 'postgres') {
      const lock = sql<{
        locked: boolean;
      }>`select pg_try_advisory_xact_lock(${sql.lit(SWEEP_LOCK)}, hashtext(${payout.merchant_id})) as locked`;
      if (!(await lock.execute(this.db)).rows[0]!.locked) return undefined;
    }
    const inserted = await this.db
      .insertInto('payouts')
      .values(payout)
      .onConflict((oc) => oc.columns(['merchant_id', 'period']).doNothing())
      .executeTakeFirst();
    if (inserted.numInsertedOrUpdatedRows !== 1n) return undefined;
    const result = await this.sweepInSteps(payout, today);
    await this.db
      .updateTable('payouts')
      .set({ amount: result.amount, entry_count: result.count })
      .where('id', '=', payout.id)
      .execute();
    // The dates it emptied hold nothing more: a balance stays a sum over the few dates with money.
    await this.db
      .deleteFrom('ledger_balances')
      .where('merchant_id', '=', payout.merchant_id)
      .where('available_on', '<=', today)
      .where('amount', '=', 0)
      .execute();
    return result;
  }

  /**
   * `SWEEP_STEP` entries at a time, in the order of their index (migration 025), each step starting after the last
   * entry the step before swept and answering what it swept; the event loop let go between steps. A step finds its rows
   * by their address: SQLite's `seq` is its rowid; on PostgreSQL `seq` has no index of its own (matched by it, every
   * step read the whole ledger), a row's `ctid` is where it lies.
   */
  private async sweepInSteps(payout: Payout, today: string): Promise<{ amount: number; count: number }> {
    const result = { amount: 0, count: 0 };
    let after: { available_on: string; seq: number } | undefined;
    const step = (from: typeof after) =>
      this.db
        .selectFrom('ledger_entries')
        .where('merchant_id', '=', payout.merchant_id)
        .where('payout_id', 'is', null)
        .where('available_on', '<=', today)
        .$if(from !== undefined, (query) =>
          query.where((eb) => eb(eb.refTuple('available_on', 'seq'), '>', eb.tuple(from!.available_on, from!.seq))),
        )
        .orderBy('available_on')
        .orderBy('seq')
        .limit(SWEEP_STEP);
    for (;;) {
      const swept = await this.db
        .updateTable('ledger_entries')
        .set({ payout_id: payout.id })
        .where((eb) =>
          this.dialect === 'postgres'
            ? sql<boolean>`ctid = any(array(${step(after).select(sql`ctid`.as('ctid'))}))`
            : eb('seq', 'in', step(after).select('seq')),
        )
        // Checked again on the row itself: on PostgreSQL, an entry another payout took while this step waited for it.
        .where('payout_id', 'is', null)
        .returning(['amount', 'available_on', 'seq'])
        .execute();
      for (const entry of swept) {
        result.amount += Number(entry.amount);
        const at = { available_on: entry.available_on!, seq: entry.seq };
        if (
          !after ||
          at.available_on > after.available_on ||
          (at.available_on === after.available_on && at.seq > after.seq)
        )
          after = at;
      }
      result.count += swept.length;
      // The writer answers at once, so awaiting it never lets the event loop turn: let it, between steps.
      await new Promise((resolve) => setImmediate(resolve));
      if (swept.length < SWEEP_STEP) return result;
    }
  }

  /** A payout that found nothing to pay out: its entries back as they were, and no payout. */
  async undo(id: string): Promise<void> {
    await this.release(id);
    await this.db.deleteFrom('payouts').where('id', '=', id).execute();
  }

  /** Moves a payout on if it is still in `from`; false when another run moved it first. */
  async transition(
    id: string,
    from: PayoutStatus,
    changes: Pick<Payout, 'status' | 'updated_at'> & Partial<Pick<Payout, 'failure_code' | 'failure_message'>>,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('payouts')
      .set(changes)
      .where('id', '=', id)
      .where('status', '=', from)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** A failed payout's entries go back to the balance, available as they were, for a later payout. */
  async release(id: string): Promise<void> {
    await this.db.updateTable('ledger_entries').set({ payout_id: null }).where('payout_id', '=', id).execute();
  }

  /** Payouts not yet paid or failed, of every merchant, one client's or one merchant's. */
  async open(scope: PayoutScope = {}): Promise<Payout[]> {
    let query = this.db.selectFrom('payouts').select(COLUMNS).where(OPEN).orderBy('arrival_date').orderBy('seq');
    if (scope.clientId) query = query.where('client_id', '=', scope.clientId);
    if (scope.merchantId) query = query.where('merchant_id', '=', scope.merchantId);
    return (await query.execute()).map(numbered);
  }

  /** Merchants with money available by `today` (in `scope`), from the balances: the payout run's candidates. */
  async withAvailableMoney(
    today: string,
    scope: PayoutScope = {},
  ): Promise<{ merchant_id: string; client_id: string; available: number }[]> {
    let query = this.db
      .selectFrom('ledger_balances')
      .innerJoin('merchants', 'merchants.id', 'ledger_balances.merchant_id')
      .select((eb) => [
        'ledger_balances.merchant_id',
        'merchants.client_id',
        eb.fn.sum<number | string>('ledger_balances.amount').as('available'),
      ])
      .where('ledger_balances.available_on', '<=', today)
      .groupBy(['ledger_balances.merchant_id', 'merchants.client_id'])
      .having((eb) => eb.fn.sum('ledger_balances.amount'), '>', 0);
    if (scope.clientId) query = query.where('merchants.client_id', '=', scope.clientId);
    if (scope.merchantId) query = query.where('ledger_balances.merchant_id', '=', scope.merchantId);
    return (await query.execute()).map((row) => ({ ...row, available: Number(row.available) }));
  }

  async hasPeriod(merchantId: string, period: string): Promise<boolean> {
    return (
      (await this.db
        .selectFrom('payouts')
        .select('id')
        .where('merchant_id', '=', merchantId)
        .where('period', '=', period)
        .executeTakeFirst()) !== undefined
    );
  }

  async find(merchantId: string, id: string): Promise<Payout | undefined> {
    const row = await this.db
      .selectFrom('payouts')
      .select(COLUMNS)
      .where('id', '=', id)
      .where('merchant_id', '=', merchantId)
      .executeTakeFirst();
    return row && numbered(row);
  }

  /** The payouts of a merchant's entries, by id (a sale's details name the payout its money went out in). */
  async findMany(merchantId: string, ids: string[]): Promise<Payout[]> {
    if (ids.length === 0) return [];
    return (
      await this.db
        .selectFrom('payouts')
        .select(COLUMNS)
        .where('merchant_id', '=', merchantId)
        .where('id', 'in', ids)
        .execute()
    ).map(numbered);
  }

  /** A merchant's payouts, newest first (`payouts_by_merchant`); a page number skips rows, a cursor reads its page only. */
  async page(merchantId: string, limit: number, start: PageStart<ListingKey>): Promise<Page<Payout, ListingKey>> {
    const listed = () => this.db.selectFrom('payouts').where('merchant_id', '=', merchantId);
    const bound = await boundOf(start, async (offset) => {
      const row = await listed()
        .select(['created_at', 'seq'])
        .orderBy('created_at', 'desc')
        .orderBy('seq', 'desc')
        .limit(1)
        .offset(offset)
        .executeTakeFirst();
      return row && keyOf(row);
    });
    if (!bound) return { items: [], total: 0, hasMore: false, last: undefined };
    let query = listed().select([...COLUMNS, 'seq']);
    if (bound !== 'top')
      query = query.where(({ eb, refTuple, tuple }) =>
        eb(refTuple('created_at', 'seq'), bound.op, tuple(bound.key.createdAt, bound.key.seq)),
      );
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('seq', 'desc')
      .limit(limit + 1)
      .execute();
    return pageOf(rows, limit, 0, ({ seq: _seq, ...payout }) => numbered(payout), keyOf);
  }

  async account(merchantId: string): Promise<PayoutAccount | undefined> {
    const row = await this.db
      .selectFrom('merchants')
      .leftJoin('payout_settings', 'payout_settings.merchant_id', 'merchants.id')
      .select([
        'merchants.application',
        'payout_settings.interval',
        'payout_settings.weekly_anchor',
        'payout_settings.bank_last_four',
        'payout_settings.bank_routing_number',
        'payout_settings.paused_at',
        'payout_settings.updated_at',
      ])
      .where('merchants.id', '=', merchantId)
      .executeTakeFirst();
    if (!row) return undefined;
    const banking = bankingOf(row.application);
    const { application: _application, ...settings } = row;
    return {
      settings: settings.interval === null ? undefined : (settings as PayoutSettings),
      onboardingLastFour: banking.account_last4 ?? '',
      onboardingRoutingNumber: banking.routing_number ?? '',
    };
  }

  async saveSettings(merchantId: string, settings: PayoutSettings): Promise<void> {
    await this.db
      .insertInto('payout_settings')
      .values({ merchant_id: merchantId, ...settings })
      .onConflict((oc) => oc.column('merchant_id').doUpdateSet(settings))
      .execute();
  }
}

/** The bank account of the onboarding application, as kept (last four digits only). */
function bankingOf(application: string | null): { account_last4?: string; routing_number?: string } {
  try {
    return (
      (JSON.parse(application ?? '{}') as { BankingInfo?: { account_last4?: string; routing_number?: string } })
        .BankingInfo ?? {}
    );
  } catch {
    return {};
  }
}
