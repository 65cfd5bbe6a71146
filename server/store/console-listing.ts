import { sql, type ExpressionBuilder } from 'kysely';
import type { Database, Executor, TransactionKind } from './schema.ts';
import type { ConsoleStatus, SearchTerms } from '../domain/console.ts';
import type { PageStart } from './pages.ts';
import type { Transaction } from './transactions.ts';

const COLUMNS = [
  'id', 'client_id', 'merchant_id', 'customer_id', 'request_id', 'parent_id', 'kind', 'method', 'status', 'source', 'order_id',
  'amount', 'fee_amount', 'net_amount', 'refunded_amount', 'card_brand', 'last_four', 'auth_code', 'gateway_ref',
  'created_at', 'completed_at', 'settled_at',
] as const;

/** The console's rows: the listed transactions (migration 012's partial index), or the holds alone. */
const LISTED = `"kind" IN ('sale', 'refund', 'void', 'ach_return')`;
const HOLDS = `"kind" = 'preauth'`;
const LISTED_KINDS: TransactionKind[] = ['sale', 'refund', 'void', 'ach_return'];

export interface ConsoleFilter {
  /** UTC midnights, as `readRange` gives them. */
  from?: string | undefined;
  to?: string | undefined;
  kind?: 'sale' | 'refund' | 'void' | 'hold' | undefined;
  status?: ConsoleStatus | undefined;
  cardBrand?: string | undefined;
  search?: SearchTerms | undefined;
}

export interface ConsoleOrder { by: 'date' | 'amount'; direction: 'desc' | 'asc' }
/** Where a row stands in the console's order: its date or amount, ties broken by insertion order. */
export interface ConsoleKey { value: string | number; seq: number }

export interface ConsolePage {
  items: Transaction[];
  /** Every matching row, or, when `totalExact` is false, at least this many (COUNT_BOUND); 0 when not counted. */
  total: number;
  totalExact: boolean;
  hasMore: boolean;
  last: ConsoleKey | undefined;
}

/** A total the counters cannot give is counted, but never past this many rows. */
const COUNT_BOUND = 1_000;

/**
 * The payments console's listing: any filter, by date or amount, either way. The rows are walked in the order of an
 * index that has the merchant and the sort column (`transactions_listed`, `transactions_listed_by_amount`,
 * `transactions_holds`), the filter applied on the way; `total` comes from the counters when the filter is only kind,
 * a stored status and dates, and is otherwise counted up to COUNT_BOUND.
 */
export class ConsoleListingRepository {
  private readonly db: Executor;

  constructor(db: Executor) {
    this.db = db;
  }

  async page(
    merchantId: string, filter: ConsoleFilter, order: ConsoleOrder, limit: number, start: PageStart<ConsoleKey>, options: { countTotal: boolean } = { countTotal: true },
  ): Promise<ConsolePage> {
    const column = order.by === 'date' ? 'created_at' : 'amount';
    let query = this.matching(merchantId, filter);
    if ('after' in start) {
      const op = order.direction === 'desc' ? '<' : '>';
      query = query.where(({ eb, refTuple, tuple }) => eb(refTuple(column, 'seq'), op, tuple(start.after.value as never, start.after.seq)));
    }
    const rows = await query
      .select([...COLUMNS, 'seq'])
      .orderBy(column, order.direction)
      .orderBy('seq', order.direction)
      .limit(limit + 1)
      .offset('offset' in start ? start.offset : 0)
      .execute();
    const hasMore = rows.length > limit;
    const kept = hasMore ? rows.slice(0, limit) : rows;
    const lastRow = kept.at(-1);
    // A last page reached by number says the total itself (a search's usual answer): no second walk to count it.
    const offset = 'offset' in start ? start.offset : undefined;
    const told = offset !== undefined && !hasMore && (kept.length > 0 || offset === 0) ? { total: offset + kept.length, exact: true } : undefined;
    const { total, exact } = !options.countTotal ? { total: 0, exact: false } : told ?? (await this.total(merchantId, filter));
    return {
      items: kept.map(({ seq: _seq, ...t }) => t),
      total, totalExact: exact, hasMore,
      last: hasMore && lastRow ? { value: order.by === 'date' ? lastRow.created_at : lastRow.amount, seq: Number(lastRow.seq) } : undefined,
    };
  }

  /** The rows a filter matches, before any order; kinds and statuses as literals, as the partial indexes' terms. */
  private matching(merchantId: string, filter: ConsoleFilter) {
    let query = this.db.selectFrom('transactions').where('merchant_id', '=', merchantId).where(sql.raw<boolean>(filter.kind === 'hold' ? HOLDS : LISTED));
    if (filter.kind && filter.kind !== 'hold') query = query.where('kind', '=', sql.lit(filter.kind));
    if (filter.status === 'completed') query = query.where('status', '=', sql.lit('completed')).where('refunded_amount', '=', sql.lit(0));
    else if (filter.status === 'refunded') query = query.where('kind', '=', sql.lit('sale')).where('refunded_amount', '>', sql.lit(0));
    else if (filter.status) query = query.where('status', '=', sql.lit(filter.status));
    if (filter.cardBrand) query = query.where('card_brand', '=', filter.cardBrand);
    if (filter.from) query = query.where('created_at', '>=', filter.from);
    if (filter.to) query = query.where('created_at', '<', filter.to);
    if (filter.search) query = query.where(searchCondition(filter.search));
    return query;
  }

  private async total(merchantId: string, filter: ConsoleFilter): Promise<{ total: number; exact: boolean }> {
    const countable = !filter.search && !filter.cardBrand && filter.status !== 'completed' && filter.status !== 'refunded';
    if (countable) return { total: await this.fromCounters(merchantId, filter), exact: true };
    // The keys of at most COUNT_BOUND + 1 rows, in the listing's own order, so that the walk is the listing's index.
    const keys = await this.matching(merchantId, filter).select('seq').orderBy('created_at', 'desc').orderBy('seq', 'desc').limit(COUNT_BOUND + 1).execute();
    const n = keys.length;
    return n > COUNT_BOUND ? { total: COUNT_BOUND, exact: false } : { total: n, exact: true };
  }

  /** The sum of the day counters (migration 012) of the filter's kinds, status and days. */
  private async fromCounters(merchantId: string, filter: ConsoleFilter): Promise<number> {
    const kinds: TransactionKind[] = filter.kind === 'hold' ? ['preauth'] : filter.kind ? [filter.kind] : LISTED_KINDS;
    let query = this.db.selectFrom('transaction_counts').where('merchant_id', '=', merchantId).where('kind', 'in', kinds);
    if (filter.status) query = query.where('status', '=', filter.status as 'voided' | 'pending' | 'declined');
    if (filter.from) query = query.where('day', '>=', filter.from.slice(0, 10));
    if (filter.to) query = query.where('day', '<', filter.to.slice(0, 10));
    const row = await query.select((eb) => eb.fn.sum<number | string>('n').as('n')).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** A sale's refunds, voids and ACH returns, oldest first. */
  async reversalsOf(merchantId: string, saleId: string): Promise<Transaction[]> {
    return this.db
      .selectFrom('transactions')
      .select(COLUMNS)
      .where('merchant_id', '=', merchantId)
      .where('parent_id', '=', saleId)
      .where(sql.raw<boolean>(`"kind" IN ('refund', 'void', 'ach_return')`))
      .orderBy('created_at', 'asc')
      .execute();
  }
}

/** A search text: an id or order id exactly, and a last four or an amount when the text can be one. */
function searchCondition(terms: SearchTerms) {
  return (eb: ExpressionBuilder<Database, 'transactions'>) =>
    eb.or([
      eb('id', '=', terms.text),
      eb('order_id', '=', terms.text),
      ...(terms.lastFour ? [eb('last_four', '=', terms.lastFour)] : []),
      ...(terms.amount !== undefined ? [eb('amount', '=', terms.amount)] : []),
    ]);
}
