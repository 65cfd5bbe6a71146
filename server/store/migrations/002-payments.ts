import type { Kysely } from 'kysely';
import type { Dialect } from '../schema.ts';

export function payments(dialect: Dialect) {
  const serial = dialect === 'postgres' ? 'bigserial' : 'integer';
  const sequence = (c: any) => (dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey());
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('payment_requests')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
        .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
        .addColumn('customer_id', 'text')
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('order_id', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('discount', 'bigint', (c) => c.notNull())
        .addColumn('surcharge', 'bigint', (c) => c.notNull())
        .addColumn('tax', 'bigint', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('invoice_number', 'text', (c) => c.notNull())
        .addColumn('customer_name', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('preauth', 'integer', (c) => c.notNull())
        .addColumn('pass_fee', 'integer', (c) => c.notNull())
        .addColumn('require_3ds', 'integer', (c) => c.notNull())
        .addColumn('allow_card', 'integer', (c) => c.notNull())
        .addColumn('allow_ach', 'integer', (c) => c.notNull())
        .addColumn('sub_merchant_key', 'text')
        .addColumn('sales_id', 'text', (c) => c.notNull().unique())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('transaction_id', 'text')
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('paid_at', 'text')
        .execute();
      await db.schema
        .createIndex('payment_requests_by_merchant')
        .on('payment_requests')
        .columns(['merchant_id', 'created_at'])
        .execute();
      // Order ids are unique per merchant; the index also makes the duplicate check a lookup.
      await db.schema
        .createIndex('payment_requests_order_id')
        .on('payment_requests')
        .columns(['merchant_id', 'order_id'])
        .unique()
        .execute();

      await db.schema
        .createTable('transactions')
        .addColumn('seq', serial, sequence)
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
        .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
        .addColumn('customer_id', 'text')
        .addColumn('request_id', 'text')
        .addColumn('parent_id', 'text')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('order_id', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('fee_amount', 'bigint', (c) => c.notNull())
        .addColumn('net_amount', 'bigint', (c) => c.notNull())
        .addColumn('refunded_amount', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('card_brand', 'text', (c) => c.notNull())
        .addColumn('last_four', 'text', (c) => c.notNull())
        .addColumn('auth_code', 'text', (c) => c.notNull())
        .addColumn('gateway_ref', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('completed_at', 'text')
        .addColumn('settled_at', 'text')
        .execute();
      await db.schema
        .createIndex('transactions_by_merchant')
        .on('transactions')
        .columns(['merchant_id', 'created_at'])
        .execute();
      await db.schema.createIndex('transactions_by_parent').on('transactions').columns(['parent_id']).execute();

      await db.schema
        .createTable('payment_methods')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('card_brand', 'text', (c) => c.notNull())
        .addColumn('last_four', 'text', (c) => c.notNull())
        .addColumn('exp_month', 'integer', (c) => c.notNull())
        .addColumn('exp_year', 'integer', (c) => c.notNull())
        /** What the sandbox processor answers when the saved card is charged again. */
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('payment_methods_by_customer')
        .on('payment_methods')
        .columns(['customer_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('messages')
        .addColumn('seq', serial, sequence)
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
        .addColumn('merchant_id', 'text', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('pay_link', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('messages_by_client').on('messages').columns(['client_id', 'seq']).execute();

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('body', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['client_id', 'key'])
        .execute();

      await db.schema
        .createTable('payment_attempts')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('request_id', 'text', (c) => c.notNull().references('payment_requests.id'))
        .addColumn('card_brand', 'text', (c) => c.notNull())
        .addColumn('last_four', 'text', (c) => c.notNull())
        .addColumn('exp_month', 'integer', (c) => c.notNull())
        .addColumn('exp_year', 'integer', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();

      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
