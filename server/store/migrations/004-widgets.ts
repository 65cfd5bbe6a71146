import type { Kysely } from 'kysely';

export function widgets() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('widget_settings')
        .addColumn('merchant_id', 'text', (c) => c.primaryKey().references('merchants.id'))
        .addColumn('button_label', 'text', (c) => c.notNull())
        .addColumn('primary_color', 'text', (c) => c.notNull())
        .addColumn('text_color', 'text', (c) => c.notNull())
        /** JSON array of origins. */
        .addColumn('allowed_origins', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('widget_sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
