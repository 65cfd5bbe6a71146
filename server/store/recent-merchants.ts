/** How long a process answers for a merchant from memory (docs/decisions.md). */
const RECENT_MERCHANT_MS = 5000;
const MOST = 10_000;

/**
 * Merchants that take payments, by client and key digest, for a few seconds: a partner's burst of payment calls
 * reads its merchant once instead of once a call (a round trip each on PostgreSQL). Only approved merchants are
 * kept, and an approved merchant's status and key never change today, so nothing a call decides on goes stale.
 * This process forgets them all whenever it writes a merchant or its widget settings (`Store.merchantChanged`, again
 * once the unit committed); another process's change (a name, the receipts setting) reaches it within
 * `RECENT_MERCHANT_MS`.
 *
 * A "suspend merchant" would change what calls decide on, and the 5 s would then matter: the suspending process
 * forgets at once, but every other process would take the suspended merchant's payments for up to 5 s. Such an
 * operation must not rely on this memory alone: either the money changes' guards check the merchant's status
 * (changes.ts, one condition more in the same statement), or suspension takes effect only after `RECENT_MERCHANT_MS`
 * and says so.
 *
 * Generic over the merchant it keeps (merchants.ts's KeyedMerchant), so that it need not import the repository that uses it.
 */
export class RecentMerchants<Kept extends { status: string }> {
  private readonly entries = new Map<string, { merchant: Kept; until: number }>();

  get(clientId: string, keyHash: string, now = Date.now()): Kept | undefined {
    const slot = `${clientId}:${keyHash}`;
    const entry = this.entries.get(slot);
    if (entry && entry.until > now) return entry.merchant;
    if (entry) this.entries.delete(slot);
    return undefined;
  }

  remember(clientId: string, keyHash: string, merchant: Kept, now = Date.now()): void {
    if (merchant.status !== 'completed') return;
    if (this.entries.size >= MOST) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(`${clientId}:${keyHash}`, { merchant, until: now + RECENT_MERCHANT_MS });
  }

  /** Forgets every merchant: this process changed one. */
  clear(): void {
    this.entries.clear();
  }
}
