import type { Kysely } from 'kysely';
import type { Dialect } from '../schema.ts';

/**
 * Brands on the hosted pages (issue 35): logos, kept once per content (their SHA-256, which is also their URL), a
 * platform's (client's) name, colour and logo, and a merchant's logo beside its widget settings' colour.
 */
export function branding(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('brand_logos')
        .addColumn('hash', 'text', (c) => c.primaryKey())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('bytes', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('client_branding')
        .addColumn('client_id', 'text', (c) => c.primaryKey().references('clients.id'))
        .addColumn('name', 'text')
        .addColumn('primary_color', 'text')
        .addColumn('logo_hash', 'text', (c) => c.references('brand_logos.hash'))
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.alterTable('widget_settings').addColumn('logo_hash', 'text').execute();
    },
  };
}
