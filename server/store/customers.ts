import type { CustomersTable, Executor } from './schema.ts';
import { boundOf, keyOf, pageOf, type ListingKey, type Page, type PageStart } from './pages.ts';

export type Customer = Omit<CustomersTable, 'seq'>;
const COLUMNS = ['id', 'merchant_id', 'first_name', 'last_name', 'email', 'phone', 'created_at'] as const;

export class CustomerRepository {
  private readonly db: Executor;

  constructor(db: Executor) {
    this.db = db;
  }

  async insert(customer: Customer): Promise<void> {
    const { id, merchant_id, first_name, last_name, email, phone, created_at } = customer;
    await this.db
      .insertInto('customers')
      .values({ id, merchant_id, first_name, last_name, email, phone, created_at })
      .execute();
  }

  async findById(merchantId: string, id: string): Promise<Customer | undefined> {
    return this.db
      .selectFrom('customers')
      .select(COLUMNS)
      .where('id', '=', id)
      .where('merchant_id', '=', merchantId)
      .executeTakeFirst();
  }

  /**
   * One page, newest first (by `created_at`, then insertion), through `customers_by_merchant`; the total from `customer_counts` (migration 012). A deep
   * page number walks the index's keys to its first row, and reads the rows of that page only.
   */
  async page(merchantId: string, limit: number, start: PageStart<ListingKey>): Promise<Page<Customer, ListingKey>> {
    const counted = await this.db
      .selectFrom('customer_counts')
      .select('n')
      .where('merchant_id', '=', merchantId)
      .executeTakeFirst();
    const total = Number(counted?.n ?? 0);
    const bound = await boundOf(start, async (offset) => {
      const row = await this.db
        .selectFrom('customers')
        .select(['created_at', 'seq'])
        .where('merchant_id', '=', merchantId)
        .orderBy('created_at', 'desc')
        .orderBy('seq', 'desc')
        .limit(1)
        .offset(offset)
        .executeTakeFirst();
      return row && keyOf(row);
    });
    if (!bound) return { items: [], total, hasMore: false, last: undefined };
    let query = this.db
      .selectFrom('customers')
      .select([...COLUMNS, 'seq'])
      .where('merchant_id', '=', merchantId);
    if (bound !== 'top')
      query = query.where(({ eb, refTuple, tuple }) =>
        eb(refTuple('created_at', 'seq'), bound.op, tuple(bound.key.createdAt, bound.key.seq)),
      );
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('seq', 'desc')
      .limit(limit + 1)
      .execute();
    return pageOf(rows, limit, total, ({ seq: _seq, ...customer }) => customer, keyOf);
  }
}
