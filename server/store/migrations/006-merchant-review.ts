import type { Kysely } from 'kysely';

/** The production review of onboarding applications: operators, their decisions, and why a merchant was declined. */
export function merchantReview() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('merchants').addColumn('declined_at', 'text').execute();
      await db.schema.alterTable('merchants').addColumn('decline_reason', 'text').execute();
      await db.schema.createIndex('merchants_by_status').on('merchants').columns(['status', 'submitted_at']).execute();

      // People at the platform who review applications; no partner client is one. Tokens are kept as digests.
      await db.schema
        .createTable('operators')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      // Every decision, by whom and why: the audit trail of the review.
      await db.schema
        .createTable('merchant_reviews')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
        .addColumn('decision', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('reviewer', 'text', (c) => c.notNull())
        .addColumn('decided_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('merchant_reviews_by_merchant')
        .on('merchant_reviews')
        .columns(['merchant_id', 'decided_at'])
        .execute();
    },
  };
}
