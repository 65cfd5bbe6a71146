import type { FastifyReply, FastifyRequest } from 'fastify';
import { Refusal, rateLimited } from '../domain/refusals.ts';
import { sessionOf, sessionTokenDigest, type WidgetSession } from '../services/widgets.ts';
import { RateLimiter } from './rate-limit.ts';

/** Console calls a minute per session token: reads (listing, details, export), and writes (actions). */
export const CONSOLE_READS_PER_MINUTE = 300;
const CONSOLE_WRITES_PER_MINUTE = 60;
/** Calls with a missing, expired or unknown token a minute per caller address, before they are answered 429. */
export const INVALID_SESSION_TOKENS_PER_MINUTE = 60;

const tooMany = (seconds: number) => `Too many requests: try again in ${seconds} seconds.`;
const tooManyInvalid = (seconds: number) =>
  `Too many requests with a missing or invalid session token from your address: try again in ${seconds} seconds.`;

/**
 * The payments console's limits, counted per session token, so that neither one merchant's busy console nor anyone's
 * stream of invalid tokens uses up another console's. Invalid tokens count in a bucket of their own per caller address,
 * past which they are answered 429; a valid token is always looked up and served within its own bounds, whatever its
 * address sent before. In memory, per process (docs/scaling.md).
 */
export class ConsoleLimits {
  private readonly reads = new RateLimiter(CONSOLE_READS_PER_MINUTE);
  private readonly writes = new RateLimiter(CONSOLE_WRITES_PER_MINUTE);
  private readonly invalid = new RateLimiter(INVALID_SESSION_TOKENS_PER_MINUTE);

  /**
   * The session of the call's Bearer token, counted against its bounds: a 401 that says how to authenticate, which
   * becomes a 429 once the caller's address sent too many invalid tokens.
   */
  async session(request: FastifyRequest, reply: FastifyReply, now: Date): Promise<WidgetSession> {
    const token = sessionTokenDigest(request.headers.authorization);
    const session = await sessionOf(request.unit.store, token, now).catch((error: unknown) => {
      reply.header('www-authenticate', 'Bearer');
      if (error instanceof Refusal && error.reason === 'authentication_failed') this.invalidToken(request);
      throw error;
    });
    this.validToken(request, token!);
    return session;
  }

  /** The token named no session: a 429 to throw instead of its 401 once its address is over its bound. */
  private invalidToken(request: FastifyRequest): void {
    const wait = this.invalid.take(request.ip);
    if (wait > 0) throw rateLimited(tooManyInvalid(wait), wait);
  }

  /** The token named a session: counted against that token's own bounds. */
  private validToken(request: FastifyRequest, tokenDigest: string): void {
    const wait = (request.method === 'GET' ? this.reads : this.writes).take(tokenDigest);
    if (wait > 0) throw rateLimited(tooMany(wait), wait);
  }
}
