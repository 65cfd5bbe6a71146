import type { Executor, MerchantsTable, MerchantStatus } from './schema.ts';

export type Merchant = MerchantsTable;
/** A merchant as the calls that name it need it: all but the stored application, which is large (~1 KB of JSON). */
export type MerchantAccount = Omit<Merchant, 'application'>;
const ACCOUNT_COLUMNS = [
  'id',
  'client_id',
  'company_id',
  'status',
  'business_name',
  'email',
  'first_name',
  'last_name',
  'phone',
  'website',
  'merchant_key_hash',
  'public_key',
  'created_at',
  'submitted_at',
  'approved_at',
  'declined_at',
  'decline_reason',
] as const satisfies readonly (keyof MerchantAccount)[];
/** A merchant as a partner's calls name it (by its key): its account, and whether its shoppers get receipts (1 or 0). */
export type KeyedMerchant = MerchantAccount & { receipts_enabled: number };
export type MerchantSummary = Pick<
  Merchant,
  | 'id'
  | 'status'
  | 'business_name'
  | 'email'
  | 'first_name'
  | 'last_name'
  | 'created_at'
  | 'phone'
  | 'public_key'
  | 'website'
>;

export class MerchantRepository {
  private readonly db: Executor;
  /** Called after every change this process makes to a merchant: the remembered merchants are forgotten. */
  private readonly changed: () => void;

  constructor(db: Executor, changed: () => void) {
    this.db = db;
    this.changed = changed;
  }

  async insert(merchant: Merchant): Promise<void> {
    await this.db.insertInto('merchants').values(merchant).execute();
  }

  /** Every lookup is scoped to one client: another client's merchant is indistinguishable from none. */
  async findByKeyHash(clientId: string, keyHash: string): Promise<KeyedMerchant | undefined> {
    return (
      this.db
        .selectFrom('merchants')
        .leftJoin('widget_settings', 'widget_settings.merchant_id', 'merchants.id')
        .select(ACCOUNT_COLUMNS.map((column) => `merchants.${column}` as const))
        // Receipts are on until a merchant turns them off (migration 014's default).
        .select((eb) => eb.fn.coalesce('widget_settings.receipts_enabled', eb.lit(1)).as('receipts_enabled'))
        .where('merchants.merchant_key_hash', '=', keyHash)
        .where('merchants.client_id', '=', clientId)
        .executeTakeFirst()
    );
  }

  async findById(clientId: string, id: string): Promise<MerchantAccount | undefined> {
    return this.db
      .selectFrom('merchants')
      .select(ACCOUNT_COLUMNS)
      .where('id', '=', id)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
  }

  /** For the widgets, which know a merchant by its public key only. */
  async findByPublicKey(publicKey: string): Promise<MerchantAccount | undefined> {
    return this.db
      .selectFrom('merchants')
      .select(ACCOUNT_COLUMNS)
      .where('public_key', '=', publicKey)
      .executeTakeFirst();
  }

  /** For the hosted onboarding form, which is reached by its link token rather than by a client. */
  async findByIdUnscoped(id: string): Promise<Merchant | undefined> {
    return this.db.selectFrom('merchants').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Applications across every client, oldest submitted first (the review queue), of one status: read in the order of
   * `merchants_by_status`, the total from `merchant_counts` (migration 012).
   */
  async withStatus(
    status: MerchantStatus,
    limit: number,
    offset: number,
  ): Promise<{ items: Merchant[]; total: number }> {
    const [items, count] = await Promise.all([
      this.db
        .selectFrom('merchants')
        .where('status', '=', status)
        .selectAll()
        .orderBy('submitted_at')
        .orderBy('id')
        .limit(limit)
        .offset(offset)
        .execute(),
      this.db.selectFrom('merchant_counts').select('n').where('status', '=', status).executeTakeFirst(),
    ]);
    return { items, total: Number(count?.n ?? 0) };
  }

  /** A merchant by its key alone, for the platform's operators (partners always go through their own client). */
  async findByKeyHashUnscoped(keyHash: string): Promise<Merchant | undefined> {
    return this.db.selectFrom('merchants').selectAll().where('merchant_key_hash', '=', keyHash).executeTakeFirst();
  }

  /** The listing's columns only: the stored application is large and not listed. */
  async listForClient(clientId: string): Promise<MerchantSummary[]> {
    return this.db
      .selectFrom('merchants')
      .select([
        'id',
        'status',
        'business_name',
        'email',
        'first_name',
        'last_name',
        'created_at',
        'phone',
        'public_key',
        'website',
      ])
      .where('client_id', '=', clientId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  async update(id: string, changes: Partial<Omit<Merchant, 'id' | 'client_id'>>): Promise<void> {
    await this.db.updateTable('merchants').set(changes).where('id', '=', id).execute();
    this.changed();
  }

  /** Moves a merchant between statuses only if it is still in `from`; false when another request won. */
  async transition(
    id: string,
    from: MerchantStatus,
    changes: Partial<Merchant> & { status: MerchantStatus },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('merchants')
      .set(changes)
      .where('id', '=', id)
      .where('status', '=', from)
      .executeTakeFirst();
    this.changed();
    return result.numUpdatedRows === 1n;
  }
}
