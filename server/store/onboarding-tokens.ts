import type { Executor } from './schema.ts';

/** Single-use bearer tokens of the hosted onboarding flow, stored as digests. */
export class OnboardingTokenRepository {
  private readonly db: Executor;

  constructor(db: Executor) {
    this.db = db;
  }

  async insertSession(session: { token_hash: string; client_id: string; expires_at: string }): Promise<void> {
    await this.db.insertInto('onboarding_sessions').values({ ...session, used_at: null }).execute();
  }

  /** Uses a session token once: true only for the first use of an unexpired token. */
  async useSession(tokenHash: string, now: string): Promise<{ client_id: string } | undefined> {
    const updated = await this.db
      .updateTable('onboarding_sessions')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('client_id')
      .executeTakeFirst();
    return updated;
  }

  async insertLink(link: { token_hash: string; merchant_id: string; expires_at: string }): Promise<void> {
    await this.db.insertInto('onboarding_links').values({ ...link, used_at: null, draft: null }).execute();
  }

  async findLink(tokenHash: string) {
    return this.db.selectFrom('onboarding_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  /** Saves the hosted form's answers on a link still usable; false when it was used or expired meanwhile. */
  async saveDraft(tokenHash: string, draft: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('onboarding_links')
      .set({ draft })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** Forgets the saved answers of links that expired unused (nobody can read them any more); how many. */
  async dropExpiredDrafts(now: string): Promise<number> {
    const result = await this.db
      .updateTable('onboarding_links')
      .set({ draft: null })
      .where('draft', 'is not', null)
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Marks a link used if it still is usable, its draft gone with it; false when it was used or expired meanwhile. */
  async useLink(tokenHash: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('onboarding_links')
      .set({ used_at: now, draft: null })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }
}
