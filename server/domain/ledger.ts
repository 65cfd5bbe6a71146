/**
 * The ledger: every movement of a merchant's money is entries, written with the change that causes it (docs/payouts.md).
 * A balance is a sum of entries, and a payout the sum of the entries it swept.
 */
import { addBusinessDays } from './business-days.ts';
import { isoDateOf } from './calendar.ts';
import { AUTO_SETTLE_MS } from './refunds.ts';

export const ENTRY_TYPES = [
  'sale',
  'fee',
  'refund',
  'void',
  'fee_refund',
  'ach_return',
  // A dispute's, on its sale (domain/disputes.ts): withdrawn when it opens, given back when it is won.
  'dispute',
  'dispute_fee',
  'dispute_reversal',
  'dispute_fee_refund',
] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];
/** Entries that are a fee (the processor's, a dispute's; charged or given back) rather than the sale's money. */
export const isFeeEntry = (type: EntryType) =>
  type === 'fee' || type === 'fee_refund' || type === 'dispute_fee' || type === 'dispute_fee_refund';

/** One movement of a merchant's money, in signed minor units. */
export interface LedgerEntry {
  merchant_id: string;
  /** The transaction it comes from: a sale, or the refund, void or return record. */
  transaction_id: string;
  type: EntryType;
  amount: number;
  /** The UTC date from which it can be paid out; null while an ACH payment waits for its bank. */
  available_on: string | null;
  created_at: string;
}

/** What entries are made from: a transaction's own fields. */
export interface MoneyRecord {
  id: string;
  merchant_id: string;
  kind: string;
  method: 'card' | 'ach';
  amount: number;
  fee_amount: number;
  completed_at: string | null;
  created_at: string;
}

/** Business days from a card sale's settlement to its money being available. */
const CARD_AVAILABLE_BUSINESS_DAYS = 2;

/**
 * When a sale's money becomes available. A card sale: two business days after it settles, and it settles on its own 48
 * hours after it completed: closing the batch early (`POST /sandbox/settle`) stops voids but does not bring money
 * forward, so the date is fixed when the sale is written (docs/decisions.md). ACH: the day its bank approved it; null
 * while it waits.
 */
export function saleAvailableOn(sale: Pick<MoneyRecord, 'method' | 'completed_at'>): string | null {
  if (sale.completed_at === null) return null;
  if (sale.method === 'ach') return sale.completed_at.slice(0, 10);
  return addBusinessDays(
    isoDateOf(new Date(Date.parse(sale.completed_at) + AUTO_SETTLE_MS)),
    CARD_AVAILABLE_BUSINESS_DAYS,
  );
}

/**
 * When a reversal of the sale's money is counted: with the sale's own money while that is not available yet (so a
 * refund of a sale still pending lowers the pending balance, never the available one), else at once.
 */
export function reversalAvailableOn(saleAvailable: string | null, now: Date): string {
  const today = isoDateOf(now);
  return saleAvailable !== null && saleAvailable > today ? saleAvailable : today;
}

const entry = (record: MoneyRecord, type: EntryType, amount: number, availableOn: string | null): LedgerEntry => ({
  merchant_id: record.merchant_id,
  transaction_id: record.id,
  type,
  amount,
  available_on: availableOn,
  created_at: record.created_at,
});
/** A fee of zero (a tiny ACH payment's) is no movement. */
const moving = (entries: LedgerEntry[]) => entries.filter((e) => e.amount !== 0);

/** A sale's entries, as it is written: its gross, and the processor's fee as an entry of its own. */
export function saleEntries(sale: MoneyRecord): LedgerEntry[] {
  const on = saleAvailableOn(sale);
  return moving([entry(sale, 'sale', sale.amount, on), entry(sale, 'fee', -sale.fee_amount, on)]);
}

/**
 * A refund, void or ACH return of `sale`, as `record` is written. A refund takes back what it refunds (the fee is
 * not returned); a void or a return takes back the whole sale and gives back its fee: each sums to its record's net.
 */
export function reversalEntries(record: MoneyRecord, sale: MoneyRecord, now: Date): LedgerEntry[] {
  const on =
    record.kind === 'ach_return' ? reversalAvailableOn(null, now) : reversalAvailableOn(saleAvailableOn(sale), now);
  if (record.kind === 'refund') return [entry(record, 'refund', -record.amount, on)];
  return moving([
    entry(record, record.kind === 'void' ? 'void' : 'ach_return', -sale.amount, on),
    entry(record, 'fee_refund', sale.fee_amount, on),
  ]);
}
