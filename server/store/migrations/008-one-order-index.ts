import type { Kysely } from 'kysely';

/**
 * Order ids are unique per merchant in `merchant_orders` (005), which every payment request reserves in its own
 * transaction; the unique index on `payment_requests (merchant_id, order_id)` checked the same thing again, no query
 * reads by it, and it was one more B-tree for every pay link to write (docs/performance.md).
 */
export function oneOrderIndex() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('payment_requests_order_id').execute();
    },
  };
}
