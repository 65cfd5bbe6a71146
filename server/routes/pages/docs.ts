import type { FastifyPluginAsync } from 'fastify';
import type { Deps } from '../../deps.ts';
import { apiReferencePage } from '../../pages/api-reference.ts';
import { sendPage } from './send.ts';

/** The API reference, rendered at request time from the OpenAPI document the app builds from its routes. */
export const docsPages: FastifyPluginAsync<Deps> = async (app) => {
  app.get('/docs', { schema: { hide: true } }, async (_request, reply) => sendPage(reply, apiReferencePage(app.swagger())));
};
