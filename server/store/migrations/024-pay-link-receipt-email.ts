import type { Kysely } from 'kysely';

/**
 * Issue 44: the e-mail a pay button passes for the shopper's receipt, kept on its pay link so that the hosted pay page
 * starts its optional receipt field with it (the shopper may change or clear it; only what is submitted is the
 * transaction's `receipt_email`). Nullable: no row is rewritten.
 */
export function payLinkReceiptEmail() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('payment_requests').addColumn('receipt_email', 'text').execute();
    },
  };
}
