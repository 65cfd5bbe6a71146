import type { Kysely } from 'kysely';

/**
 * The hosted onboarding form's answers saved step by step (issue 35), on the one-time link they belong to: a draft is
 * read only with that link's token, and goes with it. JSON text; SSN and bank account number only as their last four
 * digits, as a submitted application keeps them.
 */
export function onboardingDrafts() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('onboarding_links').addColumn('draft', 'text').execute();
    },
  };
}
