import type { Kysely } from 'kysely';
import type { Dialect } from '../schema.ts';

/** Column types that mean the same on SQLite and PostgreSQL. */
export function initial(dialect: Dialect) {
  const serial = dialect === 'postgres' ? 'bigserial' : 'integer';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('clients')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('public_key', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('merchants')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
        .addColumn('company_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('business_name', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('first_name', 'text', (c) => c.notNull())
        .addColumn('last_name', 'text', (c) => c.notNull())
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('website', 'text', (c) => c.notNull())
        .addColumn('merchant_key_hash', 'text', (c) => c.unique())
        .addColumn('public_key', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('submitted_at', 'text')
        .addColumn('approved_at', 'text')
        // Last on purpose: SQLite reads a row's columns in order, and this one spills into overflow pages.
        .addColumn('application', 'text')
        .execute();
      await db.schema.createIndex('merchants_by_client').on('merchants').columns(['client_id', 'created_at']).execute();

      await db.schema
        .createTable('onboarding_sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();

      await db.schema
        .createTable('onboarding_links')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();

      await db.schema
        .createTable('customers')
        .addColumn('seq', serial, (c) => (dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
        .addColumn('first_name', 'text', (c) => c.notNull())
        .addColumn('last_name', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('customers_by_merchant').on('customers').columns(['merchant_id', 'seq']).execute();

      await db.schema
        .createTable('events')
        .addColumn('seq', serial, (c) => (dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('events_by_client').on('events').columns(['client_id', 'seq']).execute();
    },
  };
}
