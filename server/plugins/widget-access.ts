import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from './deps.ts';
import type { MerchantAccount } from '../store/merchants.ts';
import { Refusal, forbidden, notFound, rateLimited } from '../domain/refusals.ts';
import { originAllowed, settingsOf, UNKNOWN_PUBLIC_KEY, widgetWriteRefusal } from '../services/widgets.ts';
import { RateLimiter } from './rate-limit.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The merchant a widget call's public key names. */
    widgetMerchant: MerchantAccount | null;
  }
}

const ALLOW_HEADERS = 'content-type, authorization, idempotency-key';

function allowOrigin(reply: FastifyReply, origin: string): void {
  reply
    .header('access-control-allow-origin', origin)
    .header('access-control-allow-headers', ALLOW_HEADERS)
    .header('access-control-max-age', '600');
}

/**
 * Who may call the widget API, for every route in the scope: public-key calls name the merchant in the path, so
 * even a CORS preflight knows whose allowed origins apply; calls that make something must come from an allowed page
 * as JSON; they are rate-limited per key and address. The session-token calls allow any page: the token is the
 * credential (and they are limited per token).
 */
export function guardWidgetCalls(app: FastifyInstance, { config }: Pick<Deps, 'config'>): void {
  const writes = new RateLimiter(60);
  const reads = new RateLimiter(300);
  const sandbox = config.environment === 'sandbox';
  app.decorateRequest('widgetMerchant', null);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    const publicKey = (request.params as { public_key?: string }).public_key;
    if (publicKey === undefined) {
      if (origin) allowOrigin(reply, origin);
    } else {
      const { store } = request.unit;
      const merchant = /^pk_[\w-]+$/.test(publicKey) ? await store.merchants.findByPublicKey(publicKey) : undefined;
      if (!merchant) {
        // Nothing of anyone's is behind an unknown key, so any page may read that it is unknown: the preflight
        // passes, and the call itself answers 404.
        if (origin) allowOrigin(reply, origin);
        if (request.method === 'OPTIONS') return;
        throw notFound(UNKNOWN_PUBLIC_KEY);
      }
      request.widgetMerchant = merchant;
      const settings = settingsOf(await store.widgets.settings(merchant.id));
      if (origin && originAllowed(settings, origin, sandbox)) allowOrigin(reply, origin);
      if (request.method === 'POST') {
        // JSON only: a text/plain or form POST needs no preflight, so any page could send one.
        if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) {
          throw new Refusal('unsupported_content_type', 'Widget calls send application/json.');
        }
        const refusal = widgetWriteRefusal(settings, origin, sandbox);
        if (refusal) throw forbidden(refusal);
      }
    }
    // Session-token calls (the console) are limited per token, once it is looked up (plugins/console-limits.ts).
    if (request.method === 'OPTIONS' || publicKey === undefined) return;
    const limiter = request.method === 'GET' ? reads : writes;
    const wait = limiter.take(`${publicKey}|${request.ip}`);
    if (wait > 0) throw rateLimited(`Too many requests: try again in ${wait} seconds.`, wait);
  });
}
