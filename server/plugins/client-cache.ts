import type { Client } from '../store/clients.ts';

/**
 * Recently seen clients, so that authenticating a request does not cost a query every time. Entries live
 * `ttlMs`: a secret changed by another process stops working here within that time at most.
 */
export class ClientCache {
  private readonly entries = new Map<string, { client: Client; expiresAt: number }>();

  constructor(
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 1000,
  ) {}

  get(id: string, now = Date.now()): Client | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(id);
      return undefined;
    }
    return entry.client;
  }

  set(client: Client, now = Date.now()): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(client.id, { client, expiresAt: now + this.ttlMs });
  }
}
