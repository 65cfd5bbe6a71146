import type { Executor } from './schema.ts';

/** Single-use bearer tokens of the hosted onboarding flow, stored as digests. */
export class OnboardingTokenRepository {
  private readonly db: Executor;

  constructor(db: Executor) {
    this.db = db;
  }

  async insertSession(session: { token_hash: string; client_id: string; expires_at: string }): Promise<void> {
    await this.db
      .insertInto('onboarding_sessions')
      .values({ ...session, used_at: null })
      .execute();
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

  async insertLink(link: {
    token_hash: string;
    merchant_id: string;
    expires_at: string;
    refresh_url: string | null;
    draft?: string | null;
  }): Promise<void> {
    await this.db
      .insertInto('onboarding_links')
      .values({ draft: null, ...link, used_at: null, browser_hash: null })
      .execute();
  }

  async findLink(tokenHash: string) {
    return this.db.selectFrom('onboarding_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  /**
   * The first browser to open a link holds it from then on (its cookie's digest), until `expiresAt`; false when the
   * link was opened, used or ended meanwhile.
   */
  async openLink(tokenHash: string, browserHash: string, now: string, expiresAt: string): Promise<boolean> {
    const result = await this.db
      .updateTable('onboarding_links')
      .set({ browser_hash: browserHash, expires_at: expiresAt })
      .where('token_hash', '=', tokenHash)
      .where('browser_hash', 'is', null)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** Saves the hosted form's answers on a link its browser still holds; false when it was used or ended meanwhile. */
  async saveDraft(tokenHash: string, browserHash: string, draft: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('onboarding_links')
      .set({ draft })
      .where('token_hash', '=', tokenHash)
      .where('browser_hash', '=', browserHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** The draft and refresh address of a merchant's newest link, and ends every link of it not used yet. */
  async endLinks(merchantId: string, now: string): Promise<{ draft: string | null; refresh_url: string | null }> {
    const newest = await this.db
      .selectFrom('onboarding_links')
      .select(['draft', 'refresh_url'])
      .where('merchant_id', '=', merchantId)
      .where('used_at', 'is', null)
      .orderBy('expires_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    await this.db
      .updateTable('onboarding_links')
      .set({ expires_at: now, draft: null })
      .where('merchant_id', '=', merchantId)
      .where('used_at', 'is', null)
      .execute();
    return { draft: newest?.draft ?? null, refresh_url: newest?.refresh_url ?? null };
  }

  /** Forgets the saved answers of links that ended unused before `endedBefore` (no refresh carried them on); how many. */
  async dropExpiredDrafts(endedBefore: string): Promise<number> {
    const result = await this.db
      .updateTable('onboarding_links')
      .set({ draft: null })
      .where('draft', 'is not', null)
      .where('expires_at', '<=', endedBefore)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Marks a link its browser holds used, its draft gone with it; false when it was used or ended meanwhile. */
  async useLink(tokenHash: string, browserHash: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('onboarding_links')
      .set({ used_at: now, draft: null })
      .where('token_hash', '=', tokenHash)
      .where('browser_hash', '=', browserHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }
}
