import type { FastifyReply } from 'fastify';
import type { Store } from '../store/store.ts';
import { etagOf } from './etag.ts';

interface KeptAnswer {
  version: number;
  body: string;
  etag: string;
}

/** Room (in characters) for every client's merchant list many times over; an answer larger than an eighth of it is not kept. */
const MAX_KEPT_CHARS = 16 * 1024 * 1024;

/**
 * GET answers that depend only on committed data, kept serialized with their ETag and sent again while the
 * database's committed version has not moved (Store.committedVersion): one cheap read instead of the query, the
 * serialization and the ETag's digest. The version is read before the answer is made, so an answer is never kept
 * under a version newer than its data. Where the store has no such version (PostgreSQL), every answer is made afresh.
 */
export class UnchangedAnswers {
  private readonly kept = new Map<string, KeptAnswer>();
  private keptChars = 0;

  private readonly maxChars;

  constructor(maxChars = MAX_KEPT_CHARS) {
    this.maxChars = maxChars;
  }

  /** Sends the answer kept under `key` if nothing was committed since it was made; otherwise `make`'s, kept for next time. */
  async send(reply: FastifyReply, store: Store, key: string, make: () => Promise<unknown>): Promise<FastifyReply> {
    const version = store.committedVersion?.();
    if (version === undefined) return reply.send(await make());
    let answer = this.kept.get(key);
    if (answer?.version !== version) {
      const body = reply.serialize(await make()) as string;
      answer = { version, body, etag: etagOf(body) };
      this.keep(key, answer);
    }
    return reply.header('etag', answer.etag).type('application/json; charset=utf-8').send(answer.body);
  }

  private keep(key: string, answer: KeptAnswer): void {
    this.forget(key);
    if (answer.body.length > this.maxChars / 8) return;
    this.kept.set(key, answer);
    this.keptChars += answer.body.length;
    // A Map iterates in insertion order: the answers made longest ago go first.
    for (const oldest of this.kept.keys()) {
      if (this.keptChars <= this.maxChars) break;
      this.forget(oldest);
    }
  }

  private forget(key: string): void {
    const answer = this.kept.get(key);
    if (!answer) return;
    this.kept.delete(key);
    this.keptChars -= answer.body.length;
  }
}
