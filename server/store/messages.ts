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

  /**
   * When `recipient` (a phone number for texts, an address for e-mails) got messages of the channel from the merchant
   * since `since`, oldest first, at most `limit`. Each channel's condition is a literal, for its partial index.
   */
  async sentTo(
    merchantId: string,
    channel: 'sms' | 'email',
    recipient: string,
    since: string,
    limit: number,
  ): Promise<string[]> {
    const rows = await this.db
      .selectFrom('messages')
      .select('created_at')
      .where('channel', '=', sql.lit(channel))
      .where('merchant_id', '=', merchantId)
      .where('recipient', '=', recipient)
      .where('created_at', '>', since)
      .orderBy('created_at')
      .limit(limit)
      .execute();
    return rows.map((row) => row.created_at);
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
