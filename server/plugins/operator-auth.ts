import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Store } from '../store/store.ts';
import type { Operator } from '../store/operators.ts';
import { forbidden, rateLimited, unauthenticated } from '../domain/refusals.ts';
import { digest } from '../platform/secrets.ts';
import { fromAnotherSite } from './cross-site.ts';
import { CROSS_SITE_MESSAGE } from './basic-auth.ts';
import { FailedLogins, TOO_MANY_FAILURES } from './failed-logins.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The platform operator that made the request (operator routes only). */
    operator: Operator;
  }
}

export const OPERATOR_CREDENTIALS_MESSAGE =
  'Operator calls need `Authorization: Bearer op_…`, a token made with `npm run operator -- credentials create`.';

/** A token names no operator before it is checked, so the failures of operator tokens count as one id's. */
const OPERATOR_TOKENS = 'operator tokens';

/**
 * Every route in the scope this is added to is for the platform's operators: a bearer token of theirs (`op_…`),
 * which no partner client has. Wrong tokens are throttled per address like wrong client secrets; a token that
 * verified in the last hour is never held up by them.
 */
export function requireOperator(app: FastifyInstance, store: Store, failures = new FailedLogins()): void {
  app.decorateRequest('operator', null as unknown as Operator);
  app.addHook('onRequest', async (request: FastifyRequest, reply) => {
    if (fromAnotherSite(request)) throw forbidden(CROSS_SITE_MESSAGE);
    const token = /^Bearer\s+(op_[\w-]+)$/.exec(request.headers.authorization ?? '')?.[1];
    const tokenHash = token ? digest(token) : '';
    // A token is its own identity: each operator's token is remembered once, however many operators verify.
    const wait = failures.wait(OPERATOR_TOKENS, request.ip, tokenHash, tokenHash);
    if (wait > 0) throw rateLimited(TOO_MANY_FAILURES(wait), wait);
    const operator = token && (await store.operators.findByTokenHash(tokenHash));
    if (!operator) {
      failures.failed(OPERATOR_TOKENS, request.ip);
      reply.header('www-authenticate', 'Bearer realm="Paykit operators"');
      throw unauthenticated(OPERATOR_CREDENTIALS_MESSAGE);
    }
    failures.verified(tokenHash, tokenHash);
    request.operator = operator;
  });
}
