import type { Executor, WidgetSettingsTable } from './schema.ts';

export type WidgetSettingsRow = WidgetSettingsTable;

export class WidgetRepository {
  private readonly db: Executor;

  constructor(db: Executor) {
    this.db = db;
  }

  async settings(merchantId: string): Promise<WidgetSettingsRow | undefined> {
    return this.db.selectFrom('widget_settings').selectAll().where('merchant_id', '=', merchantId).executeTakeFirst();
  }

  async saveSettings(row: WidgetSettingsRow): Promise<void> {
    const { merchant_id: _, ...changes } = row;
    await this.db.insertInto('widget_settings').values(row).onConflict((oc) => oc.column('merchant_id').doUpdateSet(changes)).execute();
  }

  async insertSession(session: { token_hash: string; merchant_id: string; expires_at: string; created_at: string }): Promise<void> {
    await this.db.insertInto('widget_sessions').values(session).execute();
  }

  /** The merchant a session token reads for, while it is valid. */
  async sessionMerchant(tokenHash: string, now: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('widget_sessions')
      .select('merchant_id')
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row?.merchant_id;
  }
}
