import type { Executor, PaymentAttemptsTable, PaymentRequestsTable } from './schema.ts';

export type PaymentRequest = PaymentRequestsTable;
export type PaymentAttempt = PaymentAttemptsTable;

export class PaymentRequestRepository {
  private readonly db: Executor;

  constructor(db: Executor) {
    this.db = db;
  }

  async insert(request: PaymentRequest): Promise<void> {
    await this.db.insertInto('payment_requests').values(request).execute();
  }

  /** The request whose pay link has this key (`payLinkKey` of its token). */
  async findByTokenHash(tokenHash: string): Promise<PaymentRequest | undefined> {
    return this.db.selectFrom('payment_requests').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  async findById(merchantId: string, id: string): Promise<PaymentRequest | undefined> {
    return this.db.selectFrom('payment_requests').selectAll().where('id', '=', id).where('merchant_id', '=', merchantId).executeTakeFirst();
  }

  /** Marks an open request paid; false when another payment got there first. */
  async markPaid(id: string, transactionId: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('payment_requests')
      .set({ status: 'paid', transaction_id: transactionId, paid_at: now })
      .where('id', '=', id)
      .where('status', '=', 'open')
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  async insertAttempt(attempt: PaymentAttempt): Promise<void> {
    await this.db.insertInto('payment_attempts').values(attempt).execute();
  }

  /** Uses a 3-D Secure attempt once, while it is fresh. */
  async useAttempt(tokenHash: string, requestId: string, now: string): Promise<PaymentAttempt | undefined> {
    const attempt = await this.db
      .selectFrom('payment_attempts')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('request_id', '=', requestId)
      .executeTakeFirst();
    if (!attempt || attempt.used_at || attempt.expires_at <= now) return undefined;
    const used = await this.db
      .updateTable('payment_attempts')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return used.numUpdatedRows === 1n ? attempt : undefined;
  }
}
