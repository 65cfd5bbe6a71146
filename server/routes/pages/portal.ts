import type { FastifyPluginAsync } from 'fastify';
import type { Deps } from '../../deps.ts';
import { createClient } from '../../services/clients.ts';
import { CLIENT_NAME_MAX, credentialsPage, portalPage } from '../../pages/portal.ts';
import { notFoundPage } from '../../pages/not-found.ts';
import { sendPage } from './send.ts';

const DEFAULT_NAME = 'Sandbox client';

/** The sandbox test portal, where a partner makes its own sandbox credentials. */
export const portalPages: FastifyPluginAsync<Deps> = async (app, { store, clock, config }) => {
  app.addHook('onRequest', async (_request, reply) => {
    if (config.environment !== 'sandbox') return sendPage(reply, notFoundPage());
  });

  app.get('/portal', { schema: { hide: true } }, async (_request, reply) => sendPage(reply, portalPage()));

  app.post('/portal/credentials', { schema: { hide: true } }, async (request, reply) => {
    const given = (request.body as Record<string, unknown> | undefined)?.name;
    const name = typeof given === 'string' ? given.trim() : '';
    if (name.length > CLIENT_NAME_MAX) {
      return sendPage(reply, portalPage({ name, error: `The name is ${name.length} characters long; shorten it to at most ${CLIENT_NAME_MAX}.` }));
    }
    const credentials = await createClient(store, name || DEFAULT_NAME, clock.now());
    return sendPage(reply, credentialsPage(credentials, config.publicUrl));
  });
};
