import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Store } from '../store/store.ts';
import type { Operator } from '../store/operators.ts';
import { forbidden, rateLimited, unauthenticated } from '../domain/refusals.ts';
import { digest } from '../secrets.ts';
import { fromAnotherSite } from './cross-site.ts';
import { FAILED_AUTHENTICATIONS_PER_MINUTE, CROSS_SITE_MESSAGE } from './basic-auth.ts';
import { RateLimiter } from './rate-limit.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The platform operator that made the request (operator routes only). */
    operator: Operator;
  }
}

export const OPERATOR_CREDENTIALS_MESSAGE = 'Operator calls need `Authorization: Bearer op_…`, a token made with `npm run operator -- credentials create`.';

/**
 * Every route in the scope this is added to is for the platform's operators: a bearer token of theirs (`op_…`),
 * which no partner client has. Wrong tokens are throttled per address like wrong client secrets.
 */
export function requireOperator(app: FastifyInstance, store: Store, failures = new RateLimiter(FAILED_AUTHENTICATIONS_PER_MINUTE)): void {
  app.decorateRequest('operator', null as unknown as Operator);
  app.addHook('onRequest', async (request: FastifyRequest, reply) => {
    if (fromAnotherSite(request)) throw forbidden(CROSS_SITE_MESSAGE);
    const wait = failures.wait(request.ip);
    if (wait > 0) throw rateLimited(`Too many failed authentications from your address: try again in ${wait} seconds.`, wait);
    const token = /^Bearer\s+(op_[\w-]+)$/.exec(request.headers.authorization ?? '')?.[1];
    const operator = token && (await store.operators.findByTokenHash(digest(token)));
    if (!operator) {
      failures.take(request.ip);
      reply.header('www-authenticate', 'Bearer realm="Paykit operators"');
      throw unauthenticated(OPERATOR_CREDENTIALS_MESSAGE);
    }
    request.operator = operator;
  });
}
