/**
 * Credentials that verified, remembered for a while: one entry per verified identity (a client id, an operator), holding
 * the digest of the credentials it last verified with. A caller presenting exactly those credentials is not guessing,
 * so the throttle on failed authentications does not stand in its way (they are still verified as usual). Only
 * identities that verified enter, one entry each however their credentials are spelled, so neither guessing nor
 * respelling one's own header can push another identity out; the oldest entry leaves when it is full.
 */
export class KnownCredentials {
  private readonly verified = new Map<string, { digest: string; at: number }>();

  private readonly rememberMs;
  private readonly maxEntries;

  constructor(rememberMs = 60 * 60_000, maxEntries = 10_000) {
    this.rememberMs = rememberMs;
    this.maxEntries = maxEntries;
  }

  /** `identity` verified with the credentials whose (normalised) digest is `digest`. */
  remember(identity: string, digest: string, now = Date.now()): void {
    this.verified.delete(identity);
    if (this.verified.size >= this.maxEntries) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(identity, { digest, at: now });
  }

  has(identity: string, digest: string, now = Date.now()): boolean {
    const entry = this.verified.get(identity);
    return entry !== undefined && entry.digest === digest && now - entry.at < this.rememberMs;
  }
}
