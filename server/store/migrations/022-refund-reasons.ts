import type { Kysely } from 'kysely';

/**
 * Issue 44's rest, on the transaction rows they describe: a refund's reason and its note (the merchant's words when the
 * reason is `other`), and a hold's history (JSON text: its authorization, each raise and cut, the capture and what it
 * released), which GET /preauth/{id} and the preauth events read back; and the address a shopper typed on the hosted
 * pay page for a receipt. Nullable columns: no row is rewritten, and a
 * refund without a reason or a hold from before this migration reads as it did.
 */
export function refundReasons() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('transactions').addColumn('refund_reason', 'text').execute();
      await db.schema.alterTable('transactions').addColumn('refund_note', 'text').execute();
      await db.schema.alterTable('transactions').addColumn('hold_history', 'text').execute();
      await db.schema.alterTable('transactions').addColumn('receipt_email', 'text').execute();
    },
  };
}
