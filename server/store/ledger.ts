import type { Executor, LedgerEntriesTable } from './schema.ts';
import type { LedgerEntry } from '../domain/ledger.ts';
import { keyOf, pageOf, type ListingKey, type Page } from './pages.ts';
import type { Guard, Row } from './changes.ts';

/** An entry as listed: its own fields, the order id of its transaction. */
export type ListedEntry = Omit<LedgerEntriesTable, 'seq'> & { seq: number; order_id: string };

export interface Balance {
  /** Minor units that can be paid out today (negative when refunds took more than there was). */
  available: number;
  /** Minor units not yet available, ACH money waiting for its bank included. */
  pending: number;
}

/** Which entries a listing walks, newest first: one payout's, or a merchant's created in [from, to). */
export type EntryListing = { payoutId: string } | { from: string; to: string };

/** A money change's entries as rows of the change (changes.ts): written with its state change and its event, or not at all. */
export const entryRows = (entries: LedgerEntry[]): Row<'ledger_entries'>[] =>
  entries.map((row) => ({ table: 'ledger_entries', row }));

/**
 * The entries of a transaction written before its date was known (ACH waiting for its bank) become available on
 * `date`: a guard of the change, since a payment still waiting always has its unswept entries (pay.ts wrote them).
 */
export const madeAvailable = (transactionId: string, date: string): Guard => ({
  table: 'ledger_entries',
  where: { transaction_id: transactionId, payout_id: null },
  set: { available_on: date },
});

/**
 * The ledger's entries (migration 020). They are rows of the change that moves the money (`entryRows`), written in
 * its unit or its one statement (changes.ts); the balances follow them by triggers.
 */
export class LedgerRepository {
  private readonly db: Executor;

  constructor(db: Executor) {
    this.db = db;
  }

  /** A merchant's balance on `today`: sums of its unswept entries per date (`ledger_balances`), a few rows whatever its history. */
  async balance(merchantId: string, today: string): Promise<Balance> {
    const rows = await this.db
      .selectFrom('ledger_balances')
      .select(['available_on', 'amount'])
      .where('merchant_id', '=', merchantId)
      .execute();
    const balance = { available: 0, pending: 0 };
    for (const row of rows) balance[row.available_on <= today ? 'available' : 'pending'] += Number(row.amount);
    return balance;
  }

  /**
   * What the ledger's invariants are checked by (docs/payouts.md, "Always true"): a merchant's entries summed and
   * counted by the payout that swept them (`null`: still in the balance).
   */
  async totalsByPayout(merchantId: string): Promise<Map<string | null, { amount: number; count: number }>> {
    const rows = await this.db
      .selectFrom('ledger_entries')
      .select((eb) => [
        'payout_id',
        eb.fn.sum<number | string>('amount').as('amount'),
        eb.fn.countAll<number | string>().as('count'),
      ])
      .where('merchant_id', '=', merchantId)
      .groupBy('payout_id')
      .execute();
    return new Map(rows.map((row) => [row.payout_id, { amount: Number(row.amount), count: Number(row.count) }]));
  }

  /** The entries of some transactions, with the payout that swept each (a sale's details). */
  async ofTransactions(merchantId: string, transactionIds: string[]): Promise<ListedEntry[]> {
    if (transactionIds.length === 0) return [];
    return (
      await this.listed(merchantId)
        .where('ledger_entries.transaction_id', 'in', transactionIds)
        .orderBy('ledger_entries.seq')
        .execute()
    ).map(numbered);
  }

  /** One page of a listing, newest first, after the cursor's row when given. */
  async page(
    merchantId: string,
    listing: EntryListing,
    limit: number,
    after?: ListingKey,
  ): Promise<Page<ListedEntry, ListingKey>> {
    let query = this.listed(merchantId);
    if ('payoutId' in listing) {
      // The payout's entries in the order they were written: their `seq` alone (its index), the cursor's time unused.
      query = query.where('ledger_entries.payout_id', '=', listing.payoutId);
      if (after) query = query.where('ledger_entries.seq', '<', after.seq);
      query = query.orderBy('ledger_entries.seq', 'desc');
    } else {
      query = query
        .where('ledger_entries.created_at', '>=', listing.from)
        .where('ledger_entries.created_at', '<', listing.to);
      if (after)
        query = query.where(({ eb, refTuple, tuple }) =>
          eb(refTuple('ledger_entries.created_at', 'ledger_entries.seq'), '<', tuple(after.createdAt, after.seq)),
        );
      query = query.orderBy('ledger_entries.created_at', 'desc').orderBy('ledger_entries.seq', 'desc');
    }
    const rows = await query.limit(limit + 1).execute();
    // `total` is not counted: a payout's count is on the payout, and a range's is not asked for.
    return pageOf(rows, limit, 0, numbered, keyOf);
  }

  private listed(merchantId: string) {
    return this.db
      .selectFrom('ledger_entries')
      .innerJoin('transactions', 'transactions.id', 'ledger_entries.transaction_id')
      .select([
        'ledger_entries.seq',
        'ledger_entries.merchant_id',
        'ledger_entries.transaction_id',
        'ledger_entries.type',
        'ledger_entries.amount',
        'ledger_entries.available_on',
        'ledger_entries.created_at',
        'ledger_entries.payout_id',
        'transactions.order_id',
      ])
      .where('ledger_entries.merchant_id', '=', merchantId);
  }
}

const numbered = (row: ListedEntry): ListedEntry => ({ ...row, seq: Number(row.seq), amount: Number(row.amount) });
