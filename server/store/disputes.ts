import { sql } from 'kysely';
import type { DisputeFilesTable, DisputesTable, Executor } from './schema.ts';
import type { DisputeReason, DisputeStatus } from '../domain/disputes.ts';
import { boundOf, keyOf, pageOf, type ListingKey, type Page, type PageStart } from './pages.ts';

export type Dispute = Omit<DisputesTable, 'seq'>;
export type DisputeFile = Omit<DisputeFilesTable, 'bytes'>;

/** What a listing of disputes filters on; each filter is the first column after the merchant of an index of its own. */
export interface DisputeFilter {
  status?: DisputeStatus | undefined;
  reason?: DisputeReason | undefined;
}

const COLUMNS = [
  'id',
  'client_id',
  'merchant_id',
  'transaction_id',
  'amount',
  'reason',
  'status',
  'funds_withdrawn',
  'evidence_due_by',
  'evidence',
  'file_count',
  'history',
  'submitted_at',
  'closed_at',
  'created_at',
  'updated_at',
] as const;
/** The partial index's condition word for word (migration 023): as parameters the planner could not use it. */
const OPEN = sql.raw<boolean>(`"status" IN ('inquiry', 'needs_response', 'under_review')`);
const FILE_COLUMNS = ['id', 'dispute_id', 'merchant_id', 'filename', 'content_type', 'size', 'created_at'] as const;
const numbered = <T extends { amount: number | string; funds_withdrawn: number | string; file_count: number | string }>(
  row: T,
) => ({
  ...row,
  amount: Number(row.amount),
  funds_withdrawn: Number(row.funds_withdrawn),
  file_count: Number(row.file_count),
});

/** Disputes and their evidence files (migration 023): written as rows and guards of changes (changes.ts). */
export class DisputeRepository {
  private readonly db: Executor;

  constructor(db: Executor) {
    this.db = db;
  }

  /** The merchant's dispute `id`; another merchant's is as unknown as a made-up one. */
  async find(merchantId: string, id: string): Promise<Dispute | undefined> {
    const row = await this.db
      .selectFrom('disputes')
      .select(COLUMNS)
      .where('id', '=', id)
      .where('merchant_id', '=', merchantId)
      .executeTakeFirst();
    return row && numbered(row);
  }

  /** The dispute `id` of any merchant: which client it belongs to decides between 403 and 404. */
  async owner(id: string): Promise<{ client_id: string; merchant_id: string } | undefined> {
    return this.db.selectFrom('disputes').select(['client_id', 'merchant_id']).where('id', '=', id).executeTakeFirst();
  }

  /** The disputes still open (`disputes_open`): what the sandbox clock decides. */
  async open(): Promise<Dispute[]> {
    const rows = await this.db.selectFrom('disputes').select(COLUMNS).where(OPEN).orderBy('evidence_due_by').execute();
    return rows.map(numbered);
  }

  async files(merchantId: string, disputeId: string): Promise<DisputeFile[]> {
    const rows = await this.db
      .selectFrom('dispute_files')
      .select(FILE_COLUMNS)
      .where('dispute_id', '=', disputeId)
      .where('merchant_id', '=', merchantId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({ ...row, size: Number(row.size) }));
  }

  /** A file's bytes, for its merchant only. */
  async file(
    merchantId: string,
    disputeId: string,
    fileId: string,
  ): Promise<(DisputeFile & { bytes: Buffer }) | undefined> {
    const row = await this.db
      .selectFrom('dispute_files')
      .select([...FILE_COLUMNS, 'bytes'])
      .where('id', '=', fileId)
      .where('dispute_id', '=', disputeId)
      .where('merchant_id', '=', merchantId)
      .executeTakeFirst();
    return row && { ...row, size: Number(row.size), bytes: Buffer.from(row.bytes) };
  }

  /** A merchant's disputes, newest first, by the index of its filter; a cursor reads its page only. */
  async page(
    merchantId: string,
    filter: DisputeFilter,
    limit: number,
    start: PageStart<ListingKey>,
  ): Promise<Page<Dispute, ListingKey>> {
    const listed = () => {
      let query = this.db.selectFrom('disputes').where('merchant_id', '=', merchantId);
      if (filter.status) query = query.where('status', '=', filter.status);
      if (filter.reason) query = query.where('reason', '=', filter.reason);
      return query;
    };
    const bound = await boundOf(start, async (offset) => {
      const row = await listed()
        .select(['created_at', 'seq'])
        .orderBy('created_at', 'desc')
        .orderBy('seq', 'desc')
        .limit(1)
        .offset(offset)
        .executeTakeFirst();
      return row && keyOf(row);
    });
    if (!bound) return { items: [], total: 0, hasMore: false, last: undefined };
    let query = listed().select([...COLUMNS, 'seq']);
    if (bound !== 'top')
      query = query.where(({ eb, refTuple, tuple }) =>
        eb(refTuple('created_at', 'seq'), bound.op, tuple(bound.key.createdAt, bound.key.seq)),
      );
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('seq', 'desc')
      .limit(limit + 1)
      .execute();
    return pageOf(rows, limit, 0, ({ seq: _seq, ...dispute }) => numbered(dispute), keyOf);
  }
}
