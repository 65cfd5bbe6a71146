import type { Executor, MerchantOrdersTable, RequestSource } from './schema.ts';
import { compiledInsert } from './compiled-query.ts';

const insertOrder = compiledInsert<MerchantOrdersTable>('merchant_orders', ['merchant_id', 'order_id']);

/** Order ids, unique per merchant whatever made the order (a pay link, a QR link, a customer charge). */
export class OrderRepository {
  constructor(private readonly db: Executor) {}

  /**
   * Takes `orderId` for the merchant; false when it was taken before. Inside the transaction that makes the order,
   * so a rolled-back order frees its id; a concurrent second insert waits for the first and then finds it taken.
   */
  async reserve(merchantId: string, orderId: string, source: RequestSource, now: string): Promise<boolean> {
    return (await insertOrder(this.db, { merchant_id: merchantId, order_id: orderId, source, created_at: now })) === 1;
  }
}
