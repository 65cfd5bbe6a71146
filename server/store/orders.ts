import type { Executor, MerchantOrdersTable, RequestSource } from './schema.ts';

/** Order ids, unique per merchant whatever made the order (a pay link, a QR link, a customer charge). */
export class OrderRepository {
  private readonly db: Executor;

  constructor(db: Executor) {
    this.db = db;
  }

  /**
   * Takes `orderId` for the merchant; false when it was taken before. Inside the transaction that makes the order,
   * so a rolled-back order frees its id; a concurrent second insert waits for the first and then finds it taken.
   */
  async reserve(merchantId: string, orderId: string, source: RequestSource, now: string): Promise<boolean> {
    const row: MerchantOrdersTable = { merchant_id: merchantId, order_id: orderId, source, created_at: now };
    const result = await this.db.insertInto('merchant_orders').values(row).onConflict((oc) => oc.columns(['merchant_id', 'order_id']).doNothing()).executeTakeFirst();
    return result.numInsertedOrUpdatedRows === 1n;
  }
}
