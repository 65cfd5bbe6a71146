import { sql } from 'kysely';
import type {
  Dialect,
  Executor,
  RequestSource,
  TransactionKind,
  TransactionStatus,
  TransactionsTable,
} from './schema.ts';
import { boundOf, keyOf, pageOf, type ListingKey, type Page, type PageStart } from './pages.ts';

export type Transaction = Omit<TransactionsTable, 'seq' | 'refunded_amount' | 'dispute_id'> & {
  refunded_amount: number;
  /** The sale's dispute, as read (migration 023); a new row has none. */
  dispute_id?: string | null;
};
export type NewTransaction = Omit<Transaction, 'refunded_amount'> & { refunded_amount?: number };
/** The shopper's phone and address from a transaction's pay-link request: null for one made without a pay link. */
export interface ShopperContacts {
  request_source: RequestSource | null;
  phone: string | null;
  email: string | null;
}
/** A transaction with what its receipt needs (`findForReceipt`): a stored customer's contacts too (a charge of theirs has no request). */
export type ReceiptSubject = Transaction &
  ShopperContacts & {
    business_name: string;
    receipts_enabled: number;
    customer_phone: string | null;
    customer_email: string | null;
  };

const COLUMNS = [
  'id',
  'client_id',
  'merchant_id',
  'customer_id',
  'request_id',
  'parent_id',
  'kind',
  'method',
  'status',
  'source',
  'order_id',
  'amount',
  'fee_amount',
  'net_amount',
  'refunded_amount',
  'card_brand',
  'last_four',
  'auth_code',
  'gateway_ref',
  'created_at',
  'completed_at',
  'settled_at',
  'refund_reason',
  'refund_note',
  'hold_history',
  'receipt_email',
  'dispute_id',
] as const;

/** A transaction's own columns, without what a joined read (`findForChange`) put beside them: a row to build on. */
export const ownColumns = (t: Transaction): Transaction =>
  Object.fromEntries(COLUMNS.filter((c) => c !== 'dispute_id').map((column) => [column, t[column]])) as Transaction;

/** Kinds that the transaction listing shows: money that moved. Authorizations are not charges. */
const LISTED_KINDS = ['sale', 'refund', 'void', 'ach_return'] as const;
export type ListedTransaction = Transaction & { kind: (typeof LISTED_KINDS)[number] };
export const isListed = (t: Transaction): t is ListedTransaction =>
  (LISTED_KINDS as readonly string[]).includes(t.kind);

/**
 * The listings of transactions, each with a partial index of its own (migration 012) whose condition the query repeats
 * word for word: `listed` is GET /merchant/transactions, `completed_sales` the widgets' table (completed money, not
 * waiting or declined ACH), `holds` GET /preauth.
 */
const VIEWS = {
  listed: { condition: `"kind" IN ('sale', 'refund', 'void', 'ach_return')`, kinds: LISTED_KINDS, statuses: undefined },
  completed_sales: {
    condition: `"kind" = 'sale' AND "status" = 'completed'`,
    kinds: ['sale'],
    statuses: ['completed'],
  },
  holds: { condition: `"kind" = 'preauth'`, kinds: ['preauth'], statuses: undefined },
} as const satisfies Record<
  string,
  { condition: string; kinds: readonly TransactionKind[]; statuses: readonly TransactionStatus[] | undefined }
>;
type TransactionView = keyof typeof VIEWS;

export interface TransactionListing {
  view: TransactionView;
  /** Created in [from, to): UTC midnights, as `readRange` gives them, so that the day counters answer for the range. */
  from?: string | undefined;
  to?: string | undefined;
  /** Holds of one status only. */
  status?: TransactionStatus | undefined;
}

const dayOf = (midnight: string) => {
  if (!midnight.endsWith('T00:00:00.000Z'))
    throw new Error(`a listing's range must start and end at UTC midnight, not ${midnight}`);
  return midnight.slice(0, 10);
};
const nextDayStart = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();

type Changes = Partial<Omit<Transaction, 'id' | 'merchant_id' | 'client_id'>>;

export class TransactionRepository {
  private readonly db: Executor;
  private readonly dialect: Dialect;

  constructor(db: Executor, dialect: Dialect) {
    this.db = db;
    this.dialect = dialect;
  }

  async insert(transaction: NewTransaction): Promise<void> {
    await this.db.insertInto('transactions').values(transaction).execute();
  }

  async find(merchantId: string, id: string): Promise<Transaction | undefined> {
    return this.byId(merchantId, id).executeTakeFirst();
  }

  /**
   * A transaction a change is decided on, with the shopper's contacts (so a refund knows whether a receipt can follow
   * it). Inside a unit of work on PostgreSQL it is held for the rest of the unit (`FOR UPDATE`), so that a change
   * decided there cannot lose its guard; SQLite runs one unit at a time.
   */
  async findForChange(merchantId: string, id: string): Promise<(Transaction & ShopperContacts) | undefined> {
    if (this.dialect === 'postgres') {
      const query = this.withContacts(merchantId, id);
      return (this.db.isTransaction ? query.forUpdate('transactions') : query).executeTakeFirst();
    }
    // SQLite reads on this thread, without a round trip: two plain reads cost a fifth of the join, which reads every
    // column of the transaction again after the request's seek.
    const transaction = await this.byId(merchantId, id).executeTakeFirst();
    const contacts = transaction?.request_id
      ? await this.db
          .selectFrom('payment_requests')
          .select(['source as request_source', 'phone', 'email'])
          .where('id', '=', transaction.request_id)
          .where('merchant_id', '=', merchantId)
          .executeTakeFirst()
      : undefined;
    return transaction && { ...transaction, ...(contacts ?? { request_source: null, phone: null, email: null }) };
  }

  /** A transaction with what its receipt needs, in one read: the shopper's contacts, its merchant's name and receipts setting. */
  async findForReceipt(merchantId: string, id: string): Promise<ReceiptSubject | undefined> {
    return (
      this.withContacts(merchantId, id)
        .innerJoin('merchants', 'merchants.id', 'transactions.merchant_id')
        .leftJoin('widget_settings', 'widget_settings.merchant_id', 'transactions.merchant_id')
        .leftJoin('customers', (join) =>
          join
            .onRef('customers.id', '=', 'transactions.customer_id')
            .onRef('customers.merchant_id', '=', 'transactions.merchant_id'),
        )
        .select(['merchants.business_name', 'customers.phone as customer_phone', 'customers.email as customer_email'])
        // Receipts are on until a merchant turns them off (migration 014's default).
        .select((eb) => eb.fn.coalesce('widget_settings.receipts_enabled', eb.lit(1)).as('receipts_enabled'))
        .executeTakeFirst()
    );
  }

  /** What a receipt needs beside its transaction: its merchant's name and receipts setting, the shopper's contacts. */
  async receiptContext(
    merchantId: string,
    requestId: string | null | undefined,
    customerId: string | null | undefined,
  ) {
    const context = await this.db
      .selectFrom('merchants')
      .leftJoin('widget_settings', 'widget_settings.merchant_id', 'merchants.id')
      .leftJoin('payment_requests', (join) =>
        join.onRef('payment_requests.merchant_id', '=', 'merchants.id').on('payment_requests.id', '=', requestId ?? ''),
      )
      .leftJoin('customers', (join) =>
        join.onRef('customers.merchant_id', '=', 'merchants.id').on('customers.id', '=', customerId ?? ''),
      )
      .select([
        'merchants.business_name',
        'payment_requests.source as request_source',
        'payment_requests.phone',
        'payment_requests.email',
        'customers.phone as customer_phone',
        'customers.email as customer_email',
      ])
      .select((eb) => eb.fn.coalesce('widget_settings.receipts_enabled', eb.lit(1)).as('receipts_enabled'))
      .where('merchants.id', '=', merchantId)
      .executeTakeFirstOrThrow();
    return context;
  }

  async update(id: string, changes: Changes): Promise<void> {
    await this.db.updateTable('transactions').set(changes).where('id', '=', id).execute();
  }

  private byId(merchantId: string, id: string) {
    return this.db
      .selectFrom('transactions')
      .select(COLUMNS)
      .where('id', '=', id)
      .where('merchant_id', '=', merchantId);
  }

  private withContacts(merchantId: string, id: string) {
    return this.db
      .selectFrom('transactions')
      .leftJoin('payment_requests', (join) =>
        join
          .onRef('payment_requests.id', '=', 'transactions.request_id')
          .onRef('payment_requests.merchant_id', '=', 'transactions.merchant_id'),
      )
      .select(COLUMNS.map((column) => `transactions.${column}` as const))
      .select(['payment_requests.source as request_source', 'payment_requests.phone', 'payment_requests.email'])
      .where('transactions.id', '=', id)
      .where('transactions.merchant_id', '=', merchantId);
  }

  /**
   * One page of a listing, newest first by (`created_at`, `seq`), through the listing's own partial index
   * (migration 012). `total` is summed from the day counters; a `pageNumber` page finds its day from the same
   * counters and walks the index inside that day only.
   */
  async page(
    merchantId: string,
    listing: TransactionListing,
    limit: number,
    start: PageStart<ListingKey>,
  ): Promise<Page<Transaction, ListingKey>> {
    // A page number past the first needs the days' counts to find its day; any other page only their sum.
    const days = 'offset' in start && start.offset > 0 ? await this.dayCounts(merchantId, listing) : undefined;
    const total = days ? days.reduce((sum, d) => sum + d.n, 0) : await this.total(merchantId, listing);
    const bound = await boundOf(start, (offset) => this.keyAtOffset(merchantId, listing, days!, offset));
    if (!bound) return { items: [], total, hasMore: false, last: undefined };
    let query = this.listed(merchantId, listing);
    if (bound !== 'top')
      query = query.where(({ eb, refTuple, tuple }) =>
        eb(refTuple('created_at', 'seq'), bound.op, tuple(bound.key.createdAt, bound.key.seq)),
      );
    const rows = await query
      .select([...COLUMNS, 'seq'])
      .orderBy('created_at', 'desc')
      .orderBy('seq', 'desc')
      .limit(limit + 1)
      .execute();
    return pageOf(rows, limit, total, ({ seq: _seq, ...t }) => t, keyOf);
  }

  /** The listing's rows, before any order: its partial index's condition as a literal, the range and the status. */
  private listed(merchantId: string, listing: TransactionListing) {
    let query = this.db
      .selectFrom('transactions')
      .where('merchant_id', '=', merchantId)
      .where(sql.raw<boolean>(VIEWS[listing.view].condition));
    if (listing.from) query = query.where('created_at', '>=', listing.from);
    if (listing.to) query = query.where('created_at', '<', listing.to);
    if (listing.status) query = query.where('status', '=', listing.status);
    return query;
  }

  /** The listing's counters: its merchant, kinds, statuses and days. */
  private counters(merchantId: string, listing: TransactionListing) {
    const view = VIEWS[listing.view];
    let query = this.db
      .selectFrom('transaction_counts')
      .where('merchant_id', '=', merchantId)
      .where('kind', 'in', [...view.kinds]);
    const statuses = listing.status ? [listing.status] : view.statuses;
    if (statuses) query = query.where('status', 'in', [...statuses]);
    if (listing.from) query = query.where('day', '>=', dayOf(listing.from));
    if (listing.to) query = query.where('day', '<', dayOf(listing.to));
    return query;
  }

  /** How many rows the listing has: a sum over its days' counters, one row back. */
  private async total(merchantId: string, listing: TransactionListing): Promise<number> {
    const row = await this.counters(merchantId, listing)
      .select((eb) => eb.fn.sum<number | string>('n').as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The listing's rows per UTC day, newest day first, from the counters. */
  private async dayCounts(merchantId: string, listing: TransactionListing): Promise<{ day: string; n: number }[]> {
    const rows = await this.counters(merchantId, listing)
      .select((eb) => ['day', eb.fn.sum<number | string>('n').as('n')])
      .groupBy('day')
      .orderBy('day', 'desc')
      .execute();
    return rows.map((r) => ({ day: r.day, n: Number(r.n) }));
  }

  /**
   * The key of the row `offset` rows into the listing: the day counters say which day holds it, then the index is
   * walked inside that day only, reading keys and nothing else. If writes landed between the two reads the walk
   * simply carries on into the older days.
   */
  private async keyAtOffset(
    merchantId: string,
    listing: TransactionListing,
    days: { day: string; n: number }[],
    offset: number,
  ): Promise<ListingKey | undefined> {
    let remaining = offset;
    const day = days.find((d) => {
      if (remaining < d.n) return true;
      remaining -= d.n;
      return false;
    });
    if (!day) return undefined;
    const row = await this.listed(merchantId, listing)
      .where('created_at', '<', nextDayStart(day.day))
      .select(['created_at', 'seq'])
      .orderBy('created_at', 'desc')
      .orderBy('seq', 'desc')
      .limit(1)
      .offset(remaining)
      .executeTakeFirst();
    return row && keyOf(row);
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
      .where(sql.raw<boolean>(VIEWS.completed_sales.condition))
      .where('settled_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
