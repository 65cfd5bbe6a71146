import type { Executor, WidgetSettingsTable } from './schema.ts';

export type WidgetSettingsRow = Omit<WidgetSettingsTable, 'receipts_enabled'> & { receipts_enabled?: number };
export interface WidgetSessionRow {
  id: string | null;
  merchant_id: string;
  features: string;
}

export class WidgetRepository {
  private readonly db: Executor;
  /** The receipts setting rides on the remembered merchant (recent-merchants.ts): forgotten when this process saves it. */
  private readonly changed: () => void;

  constructor(db: Executor, changed: () => void) {
    this.db = db;
    this.changed = changed;
  }

  async settings(merchantId: string): Promise<(WidgetSettingsRow & { receipts_enabled: number }) | undefined> {
    return this.db.selectFrom('widget_settings').selectAll().where('merchant_id', '=', merchantId).executeTakeFirst();
  }

  async saveSettings(row: WidgetSettingsRow): Promise<void> {
    const { merchant_id: _, ...changes } = row;
    await this.db
      .insertInto('widget_settings')
      .values(row)
      .onConflict((oc) => oc.column('merchant_id').doUpdateSet(changes))
      .execute();
    this.changed();
  }

  async insertSession(session: {
    token_hash: string;
    id: string;
    merchant_id: string;
    features: string;
    expires_at: string;
    created_at: string;
  }): Promise<void> {
    await this.db.insertInto('widget_sessions').values(session).execute();
  }

  /** The session a token names, while it is valid: its id, merchant and features. */
  async session(tokenHash: string, now: string): Promise<WidgetSessionRow | undefined> {
    return this.db
      .selectFrom('widget_sessions')
      .select(['id', 'merchant_id', 'features'])
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }
}
