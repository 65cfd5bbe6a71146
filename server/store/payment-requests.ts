import type { Executor, PaymentAttemptsTable, PaymentRequestsTable } from './schema.ts';

export type PaymentRequest = PaymentRequestsTable;
export type PaymentAttempt = PaymentAttemptsTable;

export class PaymentRequestRepository {
  private readonly db: Executor;

  constructor(db: Executor) {
    this.db = db;
  }

  /** The request whose pay link has this key (`payLinkKey` of its token). */
  async findByTokenHash(tokenHash: string): Promise<PaymentRequest | undefined> {
    return this.db.selectFrom('payment_requests').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  async findById(merchantId: string, id: string): Promise<PaymentRequest | undefined> {
    return this.db
      .selectFrom('payment_requests')
      .selectAll()
      .where('id', '=', id)
      .where('merchant_id', '=', merchantId)
      .executeTakeFirst();
  }

  /** A 3-D Secure attempt of the request, while it is unused and fresh. */
  async openAttempt(tokenHash: string, requestId: string, now: string): Promise<PaymentAttempt | undefined> {
    return this.db
      .selectFrom('payment_attempts')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('request_id', '=', requestId)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }
}
