import type { Executor, ReceiptsTable } from './schema.ts';

/** Hosted receipt pages: a bearer token's digest names one transaction of one merchant. */
export class ReceiptRepository {
  private readonly db: Executor;

  constructor(db: Executor) {
    this.db = db;
  }

  async byTokenHash(tokenHash: string): Promise<ReceiptsTable | undefined> {
    return this.db.selectFrom('receipts').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  /** When receipts were made for one transaction of the merchant since `since`, oldest first. */
  async sentSince(merchantId: string, transactionId: string, since: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('receipts')
      .select('created_at')
      .where('merchant_id', '=', merchantId)
      .where('transaction_id', '=', transactionId)
      .where('created_at', '>', since)
      .orderBy('created_at')
      .execute();
    return rows.map((r) => r.created_at);
  }

  /** When receipts were made for these transactions of the merchant, oldest first. */
  async sentFor(merchantId: string, transactionIds: string[]): Promise<string[]> {
    if (transactionIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('receipts')
      .select('created_at')
      .where('merchant_id', '=', merchantId)
      .where('transaction_id', 'in', transactionIds)
      .orderBy('created_at', 'asc')
      .execute();
    return rows.map((r) => r.created_at);
  }

  /** The language the newest receipt of a transaction was sent in, when it was known. */
  async languageOf(merchantId: string, transactionId: string): Promise<'en' | 'es' | 'fr' | 'de' | undefined> {
    const row = await this.db
      .selectFrom('receipts')
      .select('language')
      .where('merchant_id', '=', merchantId)
      .where('transaction_id', '=', transactionId)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return (row?.language || undefined) as 'en' | 'es' | 'fr' | 'de' | undefined;
  }
}
