import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/**
 * The audit's fixes that need the schema: order ids unique per merchant across pay links and customer charges,
 * idempotency keys kept as digests under a lease, and a lookup for texts per recipient.
 */
export function hardening() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      // Every order a merchant was asked to fulfil, however it was made: the one place order ids are unique.
      await db.schema
        .createTable('merchant_orders')
        .addColumn('merchant_id', 'text', (c) => c.notNull())
        .addColumn('order_id', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('merchant_orders_pk', ['merchant_id', 'order_id'])
        .execute();
      await db
        .insertInto('merchant_orders')
        .columns(['merchant_id', 'order_id', 'source', 'created_at'])
        .expression(db.selectFrom('payment_requests').select(['merchant_id', 'order_id', 'source', 'created_at']))
        .execute();
      // Charges made before this could repeat an order id; the first one keeps it.
      await db
        .insertInto('merchant_orders')
        .columns(['merchant_id', 'order_id', 'source', 'created_at'])
        .expression(
          db
            .selectFrom('transactions')
            .select(['merchant_id', 'order_id', 'source', 'created_at'])
            .where('source', '=', 'customer_charge')
            .where('kind', '=', 'sale')
            .orderBy('seq'),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();

      // A claim is held until `locked_until`; after a crash, a retry may take it over once that has passed.
      await db.schema.alterTable('idempotency_keys').addColumn('locked_until', 'text').execute();
      // Keys become digests, like every other token we keep.
      const rows = await db.selectFrom('idempotency_keys').select(['client_id', 'key']).execute();
      for (const row of rows as { client_id: string; key: string }[]) {
        const keyDigest = createHash('sha256').update(row.key).digest('hex');
        await db
          .updateTable('idempotency_keys')
          .set({ key: keyDigest })
          .where('client_id', '=', row.client_id)
          .where('key', '=', row.key)
          .execute();
      }
      await db
        .updateTable('idempotency_keys')
        .set({ locked_until: sql`created_at` })
        .execute();
      await db.schema.createIndex('idempotency_keys_by_age').on('idempotency_keys').column('created_at').execute();

      // Events that still hold a secret (a merchant key) until delivered, given up, or four days old.
      await db.schema
        .alterTable('events')
        .addColumn('holds_secret', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.updateTable('events').set({ holds_secret: 1 }).where('event_type', '=', 'merchant.onboarding').execute();
      // The dispatcher claims one client's events at a time, earliest due first: with `seq` in the index, the first
      // few come straight off it instead of sorting every pending event of the client on each claim.
      await db.schema.dropIndex('events_due').execute();
      await db.schema
        .createIndex('events_due')
        .on('events')
        .columns(['client_id', 'delivery_status', 'next_attempt_at', 'seq'])
        .execute();
      await db.schema
        .createIndex('events_holding_secrets')
        .on('events')
        .columns(['holds_secret', 'created_at'])
        .execute();

      // Texts per recipient and merchant are bounded (a public key can text any phone).
      await db.schema
        .createIndex('messages_by_recipient')
        .on('messages')
        .columns(['merchant_id', 'recipient', 'created_at'])
        .execute();
    },
  };
}
