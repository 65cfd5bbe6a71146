import { sql } from 'kysely';
import type { Dialect, Executor, TransactionStatus, TransactionsTable } from './schema.ts';

export type Transaction = Omit<TransactionsTable, 'seq' | 'refunded_amount'> & { refunded_amount: number };
export type NewTransaction = Omit<Transaction, 'refunded_amount'> & { refunded_amount?: number };

const COLUMNS = [
  'id', 'client_id', 'merchant_id', 'customer_id', 'request_id', 'parent_id', 'kind', 'method', 'status', 'source', 'order_id',
  'amount', 'fee_amount', 'net_amount', 'refunded_amount', 'card_brand', 'last_four', 'auth_code', 'gateway_ref',
  'created_at', 'completed_at', 'settled_at',
] as const;

/** Kinds that the transaction listing shows: money that moved. Authorizations are not charges. */
export const LISTED_KINDS = ['sale', 'refund', 'void', 'ach_return'] as const;
export type ListedTransaction = Transaction & { kind: (typeof LISTED_KINDS)[number] };
export const isListed = (t: Transaction): t is ListedTransaction => (LISTED_KINDS as readonly string[]).includes(t.kind);

export interface TransactionFilter {
  from?: string | undefined;
  to?: string | undefined;
  /** Only these statuses (the widgets' table shows completed money, not waiting or declined ACH). */
  statuses?: readonly TransactionStatus[] | undefined;
  /** Only these kinds, among the listed ones (the widgets' table shows sales). */
  kinds?: readonly (typeof LISTED_KINDS)[number][] | undefined;
}

type Changes = Partial<Omit<Transaction, 'id' | 'merchant_id' | 'client_id'>>;

export class TransactionRepository {
  constructor(
    private readonly db: Executor,
    private readonly dialect: Dialect,
  ) {}

  async insert(transaction: NewTransaction): Promise<void> {
    await this.db.insertInto('transactions').values(transaction).execute();
  }

  async find(merchantId: string, id: string): Promise<Transaction | undefined> {
    return this.byId(merchantId, id).executeTakeFirst();
  }

  /**
   * Reads a transaction and holds it for the rest of the database transaction, so that two refunds or two
   * captures of one sale run one after the other. SQLite already runs one write transaction at a time.
   */
  async findForUpdate(merchantId: string, id: string): Promise<Transaction | undefined> {
    const query = this.byId(merchantId, id);
    return (this.dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  }

  async update(id: string, changes: Changes): Promise<void> {
    await this.db.updateTable('transactions').set(changes).where('id', '=', id).execute();
  }

  private byId(merchantId: string, id: string) {
    return this.db.selectFrom('transactions').select(COLUMNS).where('id', '=', id).where('merchant_id', '=', merchantId);
  }

  /** Listed transactions created in [from, to) (ISO instants), newest first. */
  async page(merchantId: string, filter: TransactionFilter, limit: number, offset: number): Promise<{ items: ListedTransaction[]; total: number }> {
    let query = this.db.selectFrom('transactions').where('merchant_id', '=', merchantId).where('kind', 'in', [...(filter.kinds ?? LISTED_KINDS)]);
    if (filter.from) query = query.where('created_at', '>=', filter.from);
    if (filter.to) query = query.where('created_at', '<', filter.to);
    if (filter.statuses) query = query.where('status', 'in', [...filter.statuses]);
    const [items, count] = await Promise.all([
      query.select(COLUMNS).orderBy('seq', 'desc').limit(limit).offset(offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items: items.filter(isListed), total: Number(count.n) };
  }

  /** The merchant's preauthorizations (holds), newest first, of one status or all. */
  async holds(merchantId: string, status: TransactionStatus | undefined, limit: number, offset: number): Promise<{ items: Transaction[]; total: number }> {
    let query = this.db.selectFrom('transactions').where('merchant_id', '=', merchantId).where('kind', '=', 'preauth');
    if (status) query = query.where('status', '=', status);
    const [items, count] = await Promise.all([
      query.select(COLUMNS).orderBy('seq', 'desc').limit(limit).offset(offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.n) };
  }

  /** The sales that captured holds became, by the hold's id. */
  async capturesOf(merchantId: string, holdIds: string[]): Promise<Map<string, Transaction>> {
    if (holdIds.length === 0) return new Map();
    const sales = await this.db
      .selectFrom('transactions')
      .select(COLUMNS)
      .where('merchant_id', '=', merchantId)
      .where('parent_id', 'in', holdIds)
      // A literal: compared with a parameter, a partial index's term makes SQLite prepare the statement again at every
      // call (test/store/query-plans.test.ts).
      .where('kind', '=', sql.lit('sale'))
      .execute();
    return new Map(sales.map((sale) => [sale.parent_id!, sale]));
  }

  /** Settles every completed, unsettled sale of the merchant; returns how many. */
  async settleAll(merchantId: string, now: string): Promise<number> {
    const result = await this.db
      .updateTable('transactions')
      .set({ settled_at: now })
      .where('merchant_id', '=', merchantId)
      .where('kind', '=', 'sale')
      .where('status', '=', 'completed')
      .where('settled_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
