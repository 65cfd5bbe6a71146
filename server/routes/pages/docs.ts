import type { FastifyPluginAsync } from 'fastify';
import type { Deps } from '../../deps.ts';
import { apiReferencePage } from '../../views/api-reference.ts';
import { RENDERER_FILE, renderer } from '../../api-reference/renderer.ts';
import { IMMUTABLE, sendFile } from '../../static/served-file.ts';
import { sendPage } from './send.ts';

const RENDERER_PATH = `/docs/${RENDERER_FILE}`;

/**
 * GET /docs, the API reference (Scalar over /api/v1/openapi.json), and GET /docs/scalar-{version}.js, its
 * renderer, compressed once per process when first asked for (~0.8 s of CPU, mostly in the thread pool), so that a
 * process that never serves /docs, or a test's, pays nothing at start.
 */
export const docsPages: FastifyPluginAsync<Deps> = async (app, { config }) => {
  app.get('/docs', { schema: { hide: true } }, async (request, reply) => {
    const origin = `${request.protocol}://${request.host}`;
    const page = apiReferencePage({ documentUrl: '/api/v1/openapi.json', rendererUrl: RENDERER_PATH, apiUrl: `${origin}/api/v1`, environment: config.environment });
    return sendPage(reply, page, { renderer: true });
  });

  app.get(RENDERER_PATH, { schema: { hide: true } }, async (request, reply) => {
    return sendFile(request, reply, await renderer(), { cacheControl: IMMUTABLE });
  });
};
