import { sql, type Kysely } from 'kysely';

/**
 * A receipt sent again from the console is held to a bound of messages per recipient (docs/security.md): texts were
 * already counted per phone (009's partial index); e-mails are now counted per address, through a partial index of
 * their own, so that only e-mails pay for it.
 */
export function emailsByRecipient() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await sql`CREATE INDEX "messages_emails_by_recipient" ON "messages" ("merchant_id", "recipient", "created_at") WHERE "channel" = 'email'`.execute(
        db,
      );
    },
  };
}
