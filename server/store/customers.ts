import type { CustomersTable, Executor } from './schema.ts';
import { compiledQuery } from './compiled-query.ts';
import { pageOf, type Page, type PageStart } from './pages.ts';

export type Customer = Omit<CustomersTable, 'seq'>;
const COLUMNS = ['id', 'merchant_id', 'first_name', 'last_name', 'email', 'phone', 'created_at'] as const;

const insertCustomer = compiledQuery(
  (db: Executor, id: string, merchant_id: string, first_name: string, last_name: string, email: string, phone: string, created_at: string) =>
    db.insertInto('customers').values({ id, merchant_id, first_name, last_name, email, phone, created_at }),
);

export class CustomerRepository {
  constructor(private readonly db: Executor) {}

  async insert(customer: Customer): Promise<void> {
    await insertCustomer(this.db, customer.id, customer.merchant_id, customer.first_name, customer.last_name, customer.email, customer.phone, customer.created_at);
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
   * One page, newest first, through `customers_by_merchant`; the total from `customer_counts` (migration 012). A deep
   * page number walks the index's keys to its first row, and reads the rows of that page only.
   */
  async page(merchantId: string, limit: number, start: PageStart<number>): Promise<Page<Customer, number>> {
    const counted = await this.db.selectFrom('customer_counts').select('n').where('merchant_id', '=', merchantId).executeTakeFirst();
    const total = Number(counted?.n ?? 0);
    let upTo: { seq: number; inclusive: boolean } | undefined = 'after' in start ? { seq: start.after, inclusive: false } : undefined;
    if ('offset' in start && start.offset > 0) {
      const key = await this.db.selectFrom('customers').select('seq').where('merchant_id', '=', merchantId)
        .orderBy('seq', 'desc').limit(1).offset(start.offset).executeTakeFirst();
      if (!key) return { items: [], total, hasMore: false, last: undefined };
      upTo = { seq: Number(key.seq), inclusive: true };
    }
    let query = this.db.selectFrom('customers').select([...COLUMNS, 'seq']).where('merchant_id', '=', merchantId);
    if (upTo) query = query.where('seq', upTo.inclusive ? '<=' : '<', upTo.seq);
    const rows = await query.orderBy('seq', 'desc').limit(limit + 1).execute();
    return pageOf(rows, limit, total, ({ seq: _seq, ...customer }) => customer, (row) => Number(row.seq));
  }
}
