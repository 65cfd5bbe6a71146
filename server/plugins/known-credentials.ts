/**
 * Digests of credentials that verified, remembered for a while. A caller presenting exactly such credentials is not
 * guessing, so the throttle on failed authentications does not stand in its way (they are still verified as usual).
 * Only credentials that verified enter, so guessing cannot fill it; the oldest entry leaves when it is full.
 */
export class KnownCredentials {
  private readonly verifiedAt = new Map<string, number>();

  private readonly rememberMs;
  private readonly maxEntries;

  constructor(
    rememberMs = 60 * 60_000,
    maxEntries = 10_000,
  ) {
    this.rememberMs = rememberMs;
    this.maxEntries = maxEntries;
  }

  remember(digest: string, now = Date.now()): void {
    this.verifiedAt.delete(digest);
    if (this.verifiedAt.size >= this.maxEntries) this.verifiedAt.delete(this.verifiedAt.keys().next().value!);
    this.verifiedAt.set(digest, now);
  }

  has(digest: string, now = Date.now()): boolean {
    const at = this.verifiedAt.get(digest);
    return at !== undefined && now - at < this.rememberMs;
  }
}
