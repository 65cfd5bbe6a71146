import type { Dialect, Executor, MerchantOrdersTable, PaymentAttemptsTable, PaymentRequestsTable } from './schema.ts';
import type { SentMessage } from './messages.ts';
import { insertSelecting, withChainedInserts } from './chained-inserts.ts';
import { unlessClaimLost, withAnswerStored, withHeldClaim, type AnswerSeal } from './idempotency-keys.ts';

export type PaymentRequest = PaymentRequestsTable;
export type PaymentAttempt = PaymentAttemptsTable;

export class PaymentRequestRepository {
  private readonly db: Executor;
  private readonly dialect: Dialect;

  constructor(
    db: Executor,
    dialect: Dialect,
  ) {
    this.db = db;
    this.dialect = dialect;
  }

  /**
   * Takes the request's order id for its merchant and writes the request and its messages; false when the order id
   * was taken before (nothing is written). One statement on PostgreSQL: the messages' inserts select from the
   * request's, the request's from the order's, which gives no row when the order id is taken (a concurrent second
   * insert waits for the first and then finds it taken). With a `seal`, the statement also stores a keyed request's
   * answer (idempotency-keys.ts). On SQLite, run it in a unit of work (`Store.singleWrite`).
   */
  async insertWithOrder(request: PaymentRequest, messages: SentMessage[], seal?: AnswerSeal): Promise<boolean> {
    const order: MerchantOrdersTable = { merchant_id: request.merchant_id, order_id: request.order_id, source: request.source, created_at: request.created_at };
    if (this.dialect === 'postgres') return this.inOneStatement(order, request, messages, seal);
    if (!this.db.isTransaction) throw new Error('on SQLite a payment request is written inside a unit of work');
    if (seal) throw new Error("on SQLite a keyed request's unit stores its answer");
    const reserved = await this.db.insertInto('merchant_orders').values(order).onConflict((oc) => oc.columns(['merchant_id', 'order_id']).doNothing()).executeTakeFirst();
    if (reserved.numInsertedOrUpdatedRows !== 1n) return false;
    await this.insert(request);
    for (const message of messages) await this.db.insertInto('messages').values(message).execute();
    return true;
  }

  private async inOneStatement(order: MerchantOrdersTable, request: PaymentRequest, messages: SentMessage[], seal: AnswerSeal | undefined): Promise<boolean> {
    const inserts = [{ table: 'payment_requests' as const, row: request }, ...messages.map((row) => ({ table: 'messages' as const, row }))];
    // Keyed, the order is taken once for the claim's row (none when the claim is gone).
    const reserved = withHeldClaim(this.db, seal).with('reserved', (db) =>
      (seal ? insertSelecting(db, { table: 'merchant_orders', row: order }, 'claim') : db.insertInto('merchant_orders').values(order))
        .onConflict((oc) => oc.columns(['merchant_id', 'order_id'] as never).doNothing())
        .returning('order_id' as never),
    );
    const written = withAnswerStored(withChainedInserts(reserved, 'reserved', inserts), seal, `insert_${inserts.length - 1}`);
    return unlessClaimLost(this.db, seal, (await written.selectFrom('reserved').select('order_id').execute()).length === 1);
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
