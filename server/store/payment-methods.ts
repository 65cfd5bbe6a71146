import type { Executor, PaymentMethodsTable } from './schema.ts';

export type PaymentMethodRecord = PaymentMethodsTable;

/** Cards saved when a customer pays a link made for them: brand, last four, expiry and the sandbox outcome. */
export class PaymentMethodRepository {
  private readonly db: Executor;

  constructor(db: Executor) {
    this.db = db;
  }

  async latestFor(merchantId: string, customerId: string): Promise<PaymentMethodRecord | undefined> {
    return this.db
      .selectFrom('payment_methods')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('customer_id', '=', customerId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }
}
