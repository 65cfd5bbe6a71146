import assert from 'node:assert/strict';
import type { Store } from '../../server/store/store.ts';
import { parseAmount } from '../../server/domain/money.ts';
import type { PaykitClient, Payout } from '../../client/index.ts';

const minor = (text: string) => {
  const negative = text.startsWith('-');
  const value = parseAmount(negative ? text.slice(1) : text);
  assert.notEqual(value, null, `an amount: ${text}`);
  return negative ? -value! : value!;
};

/**
 * The ledger's invariants for one merchant (docs/payouts.md, "Always true"), read as a partner reads them (the balance
 * and every payout, through the API) against the entries themselves (the store):
 * - the sum of the merchant's entries is its pending plus available balance plus what its payouts took;
 * - every payout that stands (not failed) is the sum of its entries, and has exactly as many as it says;
 * - an entry is in one payout at most, and only in one that stands: a failed payout holds none.
 */
export async function checkLedger(
  store: Store,
  paykit: PaykitClient,
  merchantKey: string,
  merchantId: string,
): Promise<{ payouts: Payout[] }> {
  const balance = await paykit.payouts.balance(merchantKey);
  const payouts = await paykit.payouts.list(merchantKey, { perPage: 100 }).toArray();
  const totals = await store.ledger.totalsByPayout(merchantId);
  const all = [...totals.values()].reduce((sum, t) => sum + t.amount, 0);
  const standing = payouts.filter((p) => p.status !== 'failed');
  const paidOut = standing.reduce((sum, p) => sum + minor(p.amount), 0);
  assert.equal(
    all,
    minor(balance.available) + minor(balance.pending) + paidOut,
    'entries = pending + available + paid out',
  );
  assert.equal(
    totals.get(null)?.amount ?? 0,
    minor(balance.available) + minor(balance.pending),
    'the balance is the sum of the unswept entries',
  );
  for (const payout of standing) {
    assert.deepEqual(
      totals.get(payout.payout_id),
      { amount: minor(payout.amount), count: payout.entry_count },
      `payout ${payout.payout_id} = the sum of its entries`,
    );
    assert.ok(minor(payout.amount) > 0, 'a payout is of a positive sum');
  }
  for (const payout of payouts.filter((p) => p.status === 'failed'))
    assert.equal(totals.get(payout.payout_id), undefined, 'a failed payout holds no entry');
  const known = new Set(standing.map((p) => p.payout_id));
  for (const id of totals.keys())
    if (id !== null) assert.ok(known.has(id), `entries swept by ${id}, a payout the merchant has`);
  assert.equal(new Set(payouts.map((p) => p.payout_id)).size, payouts.length, 'each payout listed once');
  const periods = payouts.filter((p) => p.period !== null).map((p) => p.period);
  assert.equal(new Set(periods).size, periods.length, 'one payout per period');
  return { payouts };
}

/** Hours from the service clock's now to the next `weekday` (0 Sunday … 6 Saturday) at `hour`:00 UTC. */
export function hoursUntil(now: Date, weekday: number, hour: number): number {
  const target = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour));
  let days = (weekday - target.getUTCDay() + 7) % 7;
  if (days === 0 && target <= now) days = 7;
  target.setUTCDate(target.getUTCDate() + days);
  return (target.getTime() - now.getTime()) / 3_600_000;
}
