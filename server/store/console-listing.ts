import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database, Dialect, Executor, TransactionKind } from './schema.ts';
import {
  consoleStates,
  HOLD_STATES,
  LISTED_STATES,
  type ConsoleState,
  type ConsoleStatus,
  type SearchTerms,
} from '../domain/console.ts';
import { CONSOLE_STATE, EMAIL_KEY, ORDER_KEY } from './migrations/019-console-search.ts';
import type { PageStart } from './pages.ts';
import type { Transaction } from './transactions.ts';
import { invalid } from '../domain/refusals.ts';

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

/** The console's rows: the listed transactions (the partial indexes' condition, word for word), or the holds alone. */
const LISTED = sql.raw<SqlBool>(`"kind" IN ('sale', 'refund', 'void', 'ach_return')`);
const HOLDS = sql.raw<SqlBool>(`"kind" = 'preauth'`);
const LISTED_KINDS: TransactionKind[] = ['sale', 'refund', 'void', 'ach_return'];
const STATE = sql.raw<ConsoleState>(CONSOLE_STATE);
/** A disputed sale: the condition of migration 026's partial index, word for word. */
const DISPUTED = sql.raw<SqlBool>(`"dispute_id" IS NOT NULL`);
const DATE: ConsoleOrder = { by: 'date', direction: 'desc' };

/** A counted total stops here: `total` then means "at least". */
const COUNT_BOUND = 1_000;
/** An order id beginning that begins more order ids than this is searched as a whole order id. */
const PREFIX_BOUND = 1_000;
/** An e-mail search reads the transactions of the newest this many pay links sent to it. */
const EMAIL_LINKS = 1_000;
/** What no index gives in its order (amount order in a date range, or of a last four) is sorted up to this many rows. */
const SORT_BOUND = 10_000;

export interface ConsoleFilter {
  /** UTC midnights, as `readRange` gives them. */
  from?: string | undefined;
  to?: string | undefined;
  kind?: 'sale' | 'refund' | 'void' | 'hold' | undefined;
  status?: ConsoleStatus | undefined;
  cardBrand?: string | undefined;
  search?: SearchTerms | undefined;
}

export interface ConsoleOrder {
  by: 'date' | 'amount';
  direction: 'desc' | 'asc';
}
/** Where a row stands in the console's order: its amount (amount order), its date, ties broken by insertion order. */
export interface ConsoleKey {
  amount?: number | undefined;
  at: string;
  seq: number;
}

export interface ConsolePage {
  items: Transaction[];
  /** Every matching row, or, when `totalExact` is false, at least this many (COUNT_BOUND); 0 when not counted. */
  total: number;
  totalExact: boolean;
  hasMore: boolean;
  last: ConsoleKey | undefined;
  /** Said when the search was narrowed (an order id beginning that begins too many): what it searched instead. */
  narrowed?: string | undefined;
}

type Where = (eb: ExpressionBuilder<Database, 'transactions'>) => Expression<SqlBool>;
type ListedRow = Transaction & { seq: number };

/**
 * One index range of a listing. Its terms, with the merchant, the dates and the cursor, are the leading columns of an
 * index (migration 019); `inOrder` when that index's next columns are the listing's order, so that its first rows are
 * the page. Otherwise all its matches are read and sorted: `few` when they are few by what the arm is (an id, an order
 * id, a bounded beginning or e-mail), else they are counted first and refused past SORT_BOUND.
 */
interface Arm {
  terms: Where[];
  inOrder: boolean;
  few: boolean;
}

/** The least text above every text that begins with `prefix`, in code point order (both databases' order of the key). */
const afterPrefix = (prefix: string) => {
  const points = [...prefix];
  const last = points.pop()!.codePointAt(0)!;
  return points.join('') + String.fromCodePoint(Math.min(last + 1, 0x10ffff));
};

/**
 * The payments console's listing: any filter and search, by date or amount, either way, read as one or more index
 * ranges (`Arm`) merged in the listing's order, each reading about a page; never the merchant's whole history. `total`
 * comes from the day counters when the filter is only kind, a stored status and dates, else it is counted up to
 * COUNT_BOUND. The services read it through `store.longRead` (long-reads.ts): off the event loop on SQLite, under a
 * statement timeout on PostgreSQL.
 */
export class ConsoleListingRepository {
  private readonly db: Executor;
  private readonly dialect: Dialect;

  constructor(db: Executor, dialect: Dialect) {
    this.db = db;
    this.dialect = dialect;
  }

  async page(
    merchantId: string,
    filter: ConsoleFilter,
    order: ConsoleOrder,
    limit: number,
    start: PageStart<ConsoleKey>,
    options: { countTotal: boolean } = { countTotal: true },
  ): Promise<ConsolePage> {
    const { arms, narrowed } = await this.arms(merchantId, filter, order);
    const offset = 'offset' in start ? start.offset : 0;
    const unsorted = arms.filter((arm) => !arm.inOrder && !arm.few);
    // Counted first, so that nothing unbounded is sorted; the count is the total too.
    const sortedCount = unsorted.length > 0 ? await this.count(merchantId, filter, arms, SORT_BOUND) : undefined;
    if (sortedCount !== undefined && sortedCount > SORT_BOUND) {
      throw invalid(
        `Sorting by amount covers at most ${SORT_BOUND.toLocaleString('en')} transactions and this filter matches more: narrow the dates or the search, or sort by date.`,
      );
    }
    const rows = arms.length === 0 ? [] : await this.rows(merchantId, filter, order, arms, start, limit + 1 + offset);
    const hasMore = rows.length > limit;
    const kept = hasMore ? rows.slice(0, limit) : rows;
    const lastRow = kept.at(-1);
    // A last page reached by number says the total itself (a search's usual answer): no second walk to count it.
    const told =
      'offset' in start && !hasMore && (kept.length > 0 || offset === 0)
        ? { total: offset + kept.length, exact: true }
        : undefined;
    const counted = sortedCount !== undefined ? { total: sortedCount, exact: true } : told;
    const { total, exact } = !options.countTotal
      ? { total: 0, exact: false }
      : (counted ?? (await this.total(merchantId, filter, arms)));
    return {
      items: kept.map(({ seq: _seq, ...t }) => t),
      total,
      totalExact: exact,
      hasMore,
      narrowed,
      last:
        hasMore && lastRow
          ? {
              ...(order.by === 'amount' ? { amount: lastRow.amount } : {}),
              at: lastRow.created_at,
              seq: Number(lastRow.seq),
            }
          : undefined,
    };
  }

  /**
   * The page's rows. One range: read in order. Several: each range's first keys (its index holds them), merged in the
   * listing's order, then the page's rows by insertion number: a page of rows is read, however many ranges.
   */
  private async rows(
    merchantId: string,
    filter: ConsoleFilter,
    order: ConsoleOrder,
    arms: Arm[],
    start: PageStart<ConsoleKey>,
    upTo: number,
  ): Promise<ListedRow[]> {
    const offset = 'offset' in start ? start.offset : 0;
    const after = 'after' in start ? start.after : undefined;
    if (arms.length === 1)
      return ordered(this.matching(merchantId, filter, arms[0]!, after, order).select([...COLUMNS, 'seq']), order)
        .limit(upTo - offset)
        .offset(offset)
        .execute();
    const keyColumns =
      order.by === 'date' ? (['created_at', 'seq'] as const) : (['amount', 'created_at', 'seq'] as const);
    // Each range a subquery with a limit of its own, never flattened into the merge: SQLite would then walk an index in the
    // merge's order rather than the range's own (a few keys read in any order are sorted; SORT_BOUND holds them all).
    const keys = arms.map((arm, i) => {
      const matches = this.matching(merchantId, filter, arm, after, order).select(keyColumns);
      return this.db
        .selectFrom((arm.inOrder ? ordered(matches, order).limit(upTo) : matches.limit(SORT_BOUND)).as(`a${i}`))
        .select(keyColumns);
    });
    // States are disjoint; a search's forms may match one row twice.
    const merged = keys
      .slice(1)
      .reduce((all, next) => (filter.search ? all.union(next) : all.unionAll(next)), keys[0]!);
    const page = ordered(this.db.selectFrom(merged.as('merged')).select(keyColumns), order)
      .limit(upTo - offset)
      .offset(offset);
    const rows = await this.db
      .selectFrom('transactions')
      .select([...COLUMNS, 'seq'])
      .where('seq', 'in', this.db.selectFrom(page.as('page')).select('seq'))
      .execute();
    const sign = order.direction === 'desc' ? -1 : 1;
    const compare = (a: ListedRow, b: ListedRow) =>
      sign *
      ((order.by === 'amount' ? a.amount - b.amount : 0) ||
        (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0) ||
        Number(a.seq) - Number(b.seq));
    return rows.sort(compare);
  }

  /**
   * The arms' matches, counted up to `bound` + 1 each, as one number: more than `bound` means "more". Each arm's keys are
   * walked in its index's order (date), which keeps PostgreSQL on the index: unordered, it may expect the first matches
   * sooner from the table, which for a merchant whose rows sit far back is the whole table.
   */
  private async count(merchantId: string, filter: ConsoleFilter, arms: Arm[], bound: number): Promise<number> {
    if (arms.length === 0) return 0;
    const keys = arms.map((arm, i) => {
      const matches = this.matching(merchantId, filter, arm, undefined, undefined).select('seq');
      return this.db
        .selectFrom((arm.few ? matches : ordered(matches, DATE)).limit(bound + 1).as(`k${i}`))
        .select('seq');
    });
    // States are disjoint, and their ranges are read only until the bound is reached; a search's forms may overlap.
    const all = keys
      .slice(1)
      .reduce((merged, next) => (filter.search ? merged.union(next) : merged.unionAll(next)), keys[0]!);
    const counted = this.db
      .selectFrom(all.as('keys'))
      .select('seq')
      .limit(bound + 1);
    const row = await this.db
      .selectFrom(counted.as('counted'))
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  private async total(
    merchantId: string,
    filter: ConsoleFilter,
    arms: Arm[],
  ): Promise<{ total: number; exact: boolean }> {
    const countable =
      !filter.search &&
      !filter.cardBrand &&
      filter.status !== 'completed' &&
      filter.status !== 'refunded' &&
      filter.status !== 'disputed';
    if (countable) return { total: await this.fromCounters(merchantId, filter), exact: true };
    const n = await this.count(merchantId, filter, arms, COUNT_BOUND);
    return n > COUNT_BOUND ? { total: COUNT_BOUND, exact: false } : { total: n, exact: true };
  }

  /** The sum of the day counters (migration 012) of the filter's kinds, status and days. */
  private async fromCounters(merchantId: string, filter: ConsoleFilter): Promise<number> {
    const kinds: TransactionKind[] = filter.kind === 'hold' ? ['preauth'] : filter.kind ? [filter.kind] : LISTED_KINDS;
    let query = this.db
      .selectFrom('transaction_counts')
      .where('merchant_id', '=', merchantId)
      .where('kind', 'in', kinds);
    if (filter.status) query = query.where('status', '=', filter.status as 'voided' | 'pending' | 'declined');
    if (filter.from) query = query.where('day', '>=', filter.from.slice(0, 10));
    if (filter.to) query = query.where('day', '<', filter.to.slice(0, 10));
    const row = await query.select((eb) => eb.fn.sum<number | string>('n').as('n')).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** An arm's rows: the merchant's, its terms, the filter's dates, and those after the cursor's place. */
  private matching(
    merchantId: string,
    filter: ConsoleFilter,
    arm: Arm,
    after: ConsoleKey | undefined,
    order: ConsoleOrder | undefined,
  ) {
    let query = this.db.selectFrom('transactions').where('merchant_id', '=', merchantId);
    for (const term of arm.terms) query = query.where(term);
    if (filter.from) query = query.where('created_at', '>=', filter.from);
    if (filter.to) query = query.where('created_at', '<', filter.to);
    if (after && order) {
      const op = order.direction === 'desc' ? '<' : '>';
      query =
        order.by === 'date'
          ? query.where(({ eb, refTuple, tuple }) => eb(refTuple('created_at', 'seq'), op, tuple(after.at, after.seq)))
          : query.where(({ eb, refTuple, tuple }) =>
              eb(refTuple('amount', 'created_at', 'seq'), op, tuple(after.amount ?? 0, after.at, after.seq)),
            );
    }
    return query;
  }

  /**
   * The index ranges a filter reads. Kind, status and brand: the states they allow, a range each (one range of the
   * listed rows when none is given). A search: a range per form it can be, the filter's states and brand checked on
   * its matches, which cost what the search matches; an amount by the states' amount indexes, a page as any filter.
   */
  private async arms(
    merchantId: string,
    filter: ConsoleFilter,
    order: ConsoleOrder,
  ): Promise<{ arms: Arm[]; narrowed?: string | undefined }> {
    const states = consoleStates(filter.kind, filter.status);
    if (states?.length === 0) return { arms: [] };
    const byDate = order.by === 'date';
    // Amount order within dates: the dates are a range of the date indexes, not of the amount ones.
    const inOrder = byDate || (!filter.from && !filter.to);
    const every = filter.kind === 'hold' ? HOLD_STATES : LISTED_STATES;
    const kinds: Where = () => (filter.kind === 'hold' ? HOLDS : LISTED);
    const brand: Where[] = filter.cardBrand ? [(eb) => eb('card_brand', '=', filter.cardBrand!)] : [];
    const disputed: Where[] = filter.status === 'disputed' ? [() => DISPUTED] : [];
    const stateArms = (extra: Where[]) =>
      (states ?? every).map((state): Arm => ({
        terms: [...brand, (eb) => eb(STATE, '=', state), ...disputed, ...extra],
        inOrder,
        few: false,
      }));
    const search = filter.search;
    if (!search) {
      // The listed rows, or the holds in date order: one partial index of their own.
      const whole = !filter.status && !filter.cardBrand && (!filter.kind || (filter.kind === 'hold' && byDate));
      if (whole) return { arms: [{ terms: [kinds], inOrder, few: false }] };
      // The disputed sales, few beside the history: migration 026's index of them, by date.
      if (filter.status === 'disputed')
        return {
          arms: [{ terms: [() => DISPUTED, (eb) => eb(STATE, 'in', states!), ...brand], inOrder: byDate, few: false }],
        };
      return { arms: stateArms([]) };
    }
    // Each form of a search checks the filter on its matches, in terms no index answers (`|| ''`): the planner then
    // reads the form's own range, not a kind's, brand's or state's, which hold a good part of the history.
    const onMatches = (column: Expression<string>) => sql<string>`${column} || ''`;
    const checked: Where[] = [
      (eb) => eb(onMatches(sql.ref('kind')), 'in', filter.kind === 'hold' ? ['preauth'] : LISTED_KINDS),
      ...(filter.cardBrand
        ? [
            (eb: ExpressionBuilder<Database, 'transactions'>) =>
              eb(onMatches(sql.ref('card_brand')), '=', filter.cardBrand!),
          ]
        : []),
      ...(states ? [(eb: ExpressionBuilder<Database, 'transactions'>) => eb(onMatches(STATE), 'in', states)] : []),
      ...(filter.status === 'disputed'
        ? [(eb: ExpressionBuilder<Database, 'transactions'>) => eb(onMatches(sql.ref('dispute_id')), 'is not', null)]
        : []),
    ];
    const form = (terms: Where[], orderly: boolean, few: boolean): Arm => ({
      terms: [...terms, ...checked],
      inOrder: orderly,
      few,
    });
    const key = sql.raw<string>(ORDER_KEY[this.dialect]);
    const arms: Arm[] = [form([(eb) => eb('id', '=', search.text)], true, true)];
    let narrowed: string | undefined;
    const beginning: Where[] = [(eb) => eb(key, '>=', search.key), (eb) => eb(key, '<', afterPrefix(search.key))];
    // How many order ids begin so, up to the bound: their keys, in the index's order.
    const keys = this.matching(merchantId, {}, { terms: beginning, inOrder: false, few: true }, undefined, undefined)
      .select('seq')
      .orderBy(key)
      .limit(PREFIX_BOUND + 1);
    const begun = await this.db
      .selectFrom(keys.as('begun'))
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst();
    if (Number(begun?.n ?? 0) <= PREFIX_BOUND) {
      arms.push(form(beginning, false, true));
    } else {
      arms.push(form([(eb) => eb(key, '=', search.key)], byDate, true));
      narrowed = `More than ${PREFIX_BOUND.toLocaleString('en')} order ids begin with "${search.text}": only the order id "${search.text}" itself was searched.`;
    }
    if (search.lastFour) arms.push(form([(eb) => eb('last_four', '=', search.lastFour!)], byDate, false));
    if (search.amount !== undefined) {
      const amount: Where = (eb) => eb('amount', '=', search.amount!);
      if (!states && !filter.cardBrand && filter.kind !== 'hold')
        arms.push({ terms: [kinds, amount], inOrder: true, few: false });
      else arms.push(...stateArms([amount]).map((arm) => ({ ...arm, inOrder: true })));
    }
    if (search.email) arms.push(form([this.sentTo(merchantId, search.email)], false, true));
    return { arms, narrowed };
  }

  /** The transactions of the newest EMAIL_LINKS pay links sent to an e-mail: by their order ids (indexed), checked to be theirs. */
  private sentTo(merchantId: string, email: string): Where {
    const links = () =>
      this.db
        .selectFrom('payment_requests')
        .where('merchant_id', '=', merchantId)
        .where(sql.raw(EMAIL_KEY[this.dialect]), '=', email)
        .where('email', '<>', sql.lit(''))
        .orderBy('created_at', 'desc')
        .limit(EMAIL_LINKS);
    const orderKey = sql.raw<string>(ORDER_KEY[this.dialect]);
    // The order key finds them through its index; `request_id` (no index) keeps another order id of the same key out.
    return (eb) =>
      eb.and([
        eb(orderKey, 'in', links().select(orderKey.as('order_key'))),
        eb('request_id', 'in', links().select('id')),
      ]);
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

/** Date order: (created_at, seq); amount order: (amount, created_at, seq), every column the same way. */
function ordered<Q extends SelectQueryBuilder<any, any, any>>(query: Q, order: ConsoleOrder): Q {
  const columns = order.by === 'date' ? ['created_at', 'seq'] : ['amount', 'created_at', 'seq'];
  let sorted: SelectQueryBuilder<any, any, any> = query;
  for (const column of columns) sorted = sorted.orderBy(column, order.direction);
  return sorted as Q;
}
