import type { Executor, MessagesTable } from './schema.ts';
import { compiledInsert } from './compiled-query.ts';

export type SentMessage = Omit<MessagesTable, 'seq'>;

const insertMessage = compiledInsert<SentMessage>('messages');

/** The SMS and e-mails the service sent; the sandbox shows them instead of delivering them. */
export class MessageRepository {
  constructor(private readonly db: Executor) {}

  async insert(message: SentMessage): Promise<void> {
    await insertMessage(this.db, message);
  }

  /** How many texts or e-mails went to `recipient` for the merchant since `since`. */
  async countTo(merchantId: string, recipient: string, since: string): Promise<number> {
    const row = await this.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
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
