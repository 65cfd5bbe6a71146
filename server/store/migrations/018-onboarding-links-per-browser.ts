import type { Kysely } from 'kysely';

/**
 * An onboarding link works in one browser (issue 41): the first to open it within minutes holds it, by a cookie whose
 * digest is kept here (`browser_hash`); any other browser is refused. `refresh_url` is the partner's address that a
 * browser holding an ended link is sent to for a new one. The index finds a merchant's links when the partner refreshes
 * one (its draft moves to the new link).
 */
export function onboardingLinksPerBrowser() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('onboarding_links').addColumn('browser_hash', 'text').execute();
      await db.schema.alterTable('onboarding_links').addColumn('refresh_url', 'text').execute();
      await db.schema
        .createIndex('onboarding_links_by_merchant')
        .on('onboarding_links')
        .column('merchant_id')
        .execute();
    },
  };
}
