import { sql } from 'kysely';
import type { Executor, MessagesTable } from './schema.ts';

export type SentMessage = Omit<MessagesTable, 'seq'>;

/** The SMS and e-mails the service sent; the sandbox shows them instead of delivering them. */
export class MessageRepository {
  private readonly db: Executor;

  constructor(db: Executor) {
    this.db = db;
  }

  /** How many texts went to `recipient` (a phone number) for the merchant since `since`. */
  async textsTo(merchantId: string, recipient: string, since: string): Promise<number> {
    const row = await this.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      // A literal: compared with a parameter, a partial index's term makes SQLite prepare the statement again at every
      // call (test/store/query-plans.test.ts).
      .where('channel', '=', sql.lit('sms'))
      .where('merchant_id', '=', merchantId)
      .where('recipient', '=', recipient)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async newestFirst(clientId: string, limit: number): Promise<SentMessage[]> {
    return this.db
      .selectFrom('messages')
      .select(['id', 'client_id', 'merchant_id', 'channel', 'recipient', 'body', 'pay_link', 'created_at'])
      .where('client_id', '=', clientId)
      .orderBy('seq', 'desc')
      .limit(limit)
      .execute();
  }
}
