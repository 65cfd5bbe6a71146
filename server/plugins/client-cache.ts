import type { Client } from '../store/clients.ts';

/**
 * Recently verified credentials, so that authenticating a request does not cost a query every time. Keyed by a
 * digest of the Authorization header that carried them (the client id and secret together; a hit needs no parsing
 * of the header): only a pair that was verified is found here, so a wrong secret always takes the same path (a
 * database read and a digest comparison) whether or not the id exists. Entries live `ttlMs`: a secret changed by
 * another process stops working here within that time at most.
 */
export class ClientCache {
  private readonly entries = new Map<string, { client: Client; expiresAt: number }>();

  private readonly ttlMs;
  private readonly maxEntries;

  constructor(ttlMs = 30_000, maxEntries = 1000) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
  }

  get(key: string, now = Date.now()): Client | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.client;
  }

  set(key: string, client: Client, now = Date.now()): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { client, expiresAt: now + this.ttlMs });
  }
}
