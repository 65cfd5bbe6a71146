import type { CustomersTable, Executor } from './schema.ts';

export type Customer = Omit<CustomersTable, 'seq'>;

export class CustomerRepository {
  constructor(private readonly db: Executor) {}

  async insert(customer: Customer): Promise<void> {
    const { id, merchant_id, first_name, last_name, email, phone, created_at } = customer;
    await this.db.insertInto('customers').values({ id, merchant_id, first_name, last_name, email, phone, created_at }).execute();
  }

  async findById(merchantId: string, id: string): Promise<Customer | undefined> {
    return this.db
      .selectFrom('customers')
      .select(['id', 'merchant_id', 'first_name', 'last_name', 'email', 'phone', 'created_at'])
      .where('id', '=', id)
      .where('merchant_id', '=', merchantId)
      .executeTakeFirst();
  }

  /** One page, newest first; `page` counts from 1. */
  async page(merchantId: string, page: number, perPage: number): Promise<{ items: Customer[]; totalCount: number }> {
    const [items, count] = await Promise.all([
      this.db
        .selectFrom('customers')
        .select(['id', 'merchant_id', 'first_name', 'last_name', 'email', 'phone', 'created_at'])
        .where('merchant_id', '=', merchantId)
        .orderBy('seq', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute(),
      this.db
        .selectFrom('customers')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('merchant_id', '=', merchantId)
        .executeTakeFirstOrThrow(),
    ]);
    return { items, totalCount: Number(count.n) };
  }
}
