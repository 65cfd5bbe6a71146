import type { Executor } from './schema.ts';

/** The sandbox clock's offset in milliseconds, so a moved clock stays moved after a restart. */
export const CLOCK_OFFSET_SETTING = 'sandbox_clock_offset_ms';

/** Small named values the service keeps across restarts (the sandbox clock's offset). */
export class SettingsRepository {
  private readonly db: Executor;

  constructor(db: Executor) {
    this.db = db;
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value;
  }

  async set(key: string, value: string): Promise<void> {
    await this.db
      .insertInto('settings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }
}
