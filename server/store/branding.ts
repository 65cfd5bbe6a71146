import type { BrandLogosTable, ClientBrandingTable, Executor } from './schema.ts';

export type BrandLogo = BrandLogosTable;
export type LogoFacts = Omit<BrandLogosTable, 'bytes'>;
export type ClientBrandingRow = ClientBrandingTable;

export class BrandingRepository {
  private readonly db: Executor;

  constructor(db: Executor) {
    this.db = db;
  }

  /** Keeps a logo; the same content again is the same row. */
  async saveLogo(logo: BrandLogo): Promise<void> {
    await this.db
      .insertInto('brand_logos')
      .values(logo)
      .onConflict((oc) => oc.column('hash').doNothing())
      .execute();
  }

  async logo(hash: string): Promise<BrandLogo | undefined> {
    return this.db.selectFrom('brand_logos').selectAll().where('hash', '=', hash).executeTakeFirst();
  }

  /** What a page needs of a logo, without its bytes. */
  async logoFacts(hash: string): Promise<LogoFacts | undefined> {
    return this.db
      .selectFrom('brand_logos')
      .select(['hash', 'content_type', 'width', 'height', 'created_at'])
      .where('hash', '=', hash)
      .executeTakeFirst();
  }

  async clientBranding(clientId: string): Promise<ClientBrandingRow | undefined> {
    return this.db.selectFrom('client_branding').selectAll().where('client_id', '=', clientId).executeTakeFirst();
  }

  async saveClientBranding(row: ClientBrandingRow): Promise<void> {
    const { client_id: _, ...changes } = row;
    await this.db
      .insertInto('client_branding')
      .values(row)
      .onConflict((oc) => oc.column('client_id').doUpdateSet(changes))
      .execute();
  }
}
