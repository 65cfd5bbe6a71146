import type { FastifyPluginAsync } from 'fastify';
import type { Deps } from '../../plugins/deps.ts';
import { createClient } from '../../services/clients.ts';
import { CLIENT_NAME_MAX, credentialsPage, portalPage } from '../../views/portal.ts';
import { notFoundPage } from '../../views/not-found.ts';
import { sendPage } from './send.ts';
import { fromAnotherSite } from '../../plugins/cross-site.ts';
import { RateLimiter } from '../../plugins/rate-limit.ts';
import { pooledRandomBytes } from '../../platform/secrets.ts';
import { dashboardPages } from './portal-dashboard.ts';

const DEFAULT_NAME = 'Sandbox client';
/** Sandbox clients one address may make in an hour: enough to try things, not enough to fill the database. */
export const CLIENTS_PER_ADDRESS_PER_HOUR = 10;

/** The sandbox test portal, where a partner makes its own sandbox credentials. */
export const portalPages: FastifyPluginAsync<Deps> = async (app, deps) => {
  const { clock, config } = deps;
  const made = new RateLimiter(CLIENTS_PER_ADDRESS_PER_HOUR, 60 * 60 * 1000);
  app.addHook('onRequest', async (_request, reply) => {
    if (config.environment !== 'sandbox') return sendPage(reply, notFoundPage());
  });

  app.get('/portal', { schema: { hide: true } }, async (_request, reply) => sendPage(reply, portalPage()));

  app.post('/portal/credentials', { schema: { hide: true } }, async (request, reply) => {
    const given = (request.body as Record<string, unknown> | undefined)?.name;
    const name = typeof given === 'string' ? given.trim() : '';
    // Another site's page could post this form with the visitor's browser: refuse, as a CSRF token would.
    if (fromAnotherSite(request))
      return sendPage(reply, portalPage({ name, error: 'Credentials are made from this page only.' }), {}, 403);
    const wait = made.take(request.ip);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      return sendPage(
        reply,
        portalPage({
          name,
          error: `Your address made ${CLIENTS_PER_ADDRESS_PER_HOUR} sandbox clients this hour; try again in ${Math.ceil(wait / 60)} minutes.`,
        }),
        {},
        429,
      );
    }
    if (name.length > CLIENT_NAME_MAX) {
      return sendPage(
        reply,
        portalPage({
          name,
          error: `The name is ${name.length} characters long; shorten it to at most ${CLIENT_NAME_MAX}.`,
        }),
      );
    }
    const credentials = await request.unit.transaction((tx) => createClient(tx, name || DEFAULT_NAME, clock.now()));
    const nonce = pooledRandomBytes(16).toString('base64');
    return sendPage(reply, credentialsPage(credentials, config.publicUrl, nonce), { scriptNonce: nonce });
  });

  await app.register(dashboardPages, deps);
};
