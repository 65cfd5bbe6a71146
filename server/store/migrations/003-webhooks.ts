import type { Kysely } from 'kysely';
import type { Dialect } from '../schema.ts';

export function webhooks(dialect: Dialect) {
  const serial = dialect === 'postgres' ? 'bigserial' : 'integer';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('client_id', 'text', (c) => c.primaryKey().references('clients.id'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('previous_secret', 'text')
        .addColumn('previous_secret_expires_at', 'text')
        .addColumn('disabled_at', 'text')
        .addColumn('disabled_reason', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      // Delivery state lives on the outbox row itself, written with the event in the same transaction.
      await db.schema
        .alterTable('events')
        .addColumn('delivery_status', 'text', (c) => c.notNull().defaultTo('pending'))
        .execute();
      await db.schema
        .alterTable('events')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('events')
        .addColumn('next_attempt_at', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.alterTable('events').addColumn('claimed_until', 'text').execute();
      await db.schema.alterTable('events').addColumn('delivered_at', 'text').execute();
      // Claims start from the enabled endpoints and look up each client's due events: events of clients without
      // an endpoint are never scanned, however many wait.
      await db.schema
        .createIndex('events_due')
        .on('events')
        .columns(['client_id', 'delivery_status', 'next_attempt_at'])
        .execute();

      await db.schema
        .createTable('webhook_attempts')
        .addColumn('seq', serial, (c) => (dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('attempted_at', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('error', 'text')
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_attempts_by_event')
        .on('webhook_attempts')
        .columns(['event_id', 'seq'])
        .execute();
    },
  };
}
