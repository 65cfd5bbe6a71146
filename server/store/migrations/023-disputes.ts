import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../schema.ts';

/**
 * Disputes (issue 46, docs/disputes.md).
 *
 * - `disputes`: one per sale at most (the unique key two openings meet on); its evidence's text as JSON, its history
 *   as JSON, how many files it holds. Indexes: a merchant's disputes newest first, by status and by reason (the
 *   listing's filters), and the open ones by due date (what the sandbox clock decides).
 * - `dispute_files`: the evidence files, stored with the merchant's data (its id on every row) and served only to it.
 * - `transactions.dispute_id`: the sale's dispute, which a refund's or a void's guard reads (a sale disputed between
 *   their read and their write is refused, not refunded).
 */
export function disputes(dialect: Dialect) {
  const seq = dialect === 'postgres' ? '"seq" bigserial primary key' : '"seq" integer primary key';
  const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
  const bytes = dialect === 'postgres' ? 'bytea' : 'blob';
  return {
    async up(db: Kysely<any>): Promise<void> {
      const statements = [
        `CREATE TABLE "disputes" (${seq}, "id" text not null unique, "client_id" text not null,
          "merchant_id" text not null, "transaction_id" text not null unique, "amount" ${bigint} not null,
          "reason" text not null, "status" text not null, "funds_withdrawn" integer not null,
          "evidence_due_by" text not null, "evidence" text not null, "file_count" integer not null,
          "history" text not null, "submitted_at" text, "closed_at" text, "created_at" text not null,
          "updated_at" text not null)`,
        `CREATE TABLE "dispute_files" ("id" text primary key, "dispute_id" text not null, "merchant_id" text not null,
          "filename" text not null, "content_type" text not null, "size" integer not null, "bytes" ${bytes} not null,
          "created_at" text not null)`,
        'CREATE INDEX "dispute_files_by_dispute" ON "dispute_files" ("dispute_id", "created_at")',
        'CREATE INDEX "disputes_by_merchant" ON "disputes" ("merchant_id", "created_at", "seq")',
        'CREATE INDEX "disputes_by_status" ON "disputes" ("merchant_id", "status", "created_at", "seq")',
        'CREATE INDEX "disputes_by_reason" ON "disputes" ("merchant_id", "reason", "created_at", "seq")',
        `CREATE INDEX "disputes_open" ON "disputes" ("evidence_due_by") WHERE "status" IN ('inquiry', 'needs_response', 'under_review')`,
        'ALTER TABLE "transactions" ADD COLUMN "dispute_id" text',
      ];
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
  };
}
