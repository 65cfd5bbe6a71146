import type { FastifyPluginAsync } from 'fastify';
import type { Deps } from '../../plugins/deps.ts';
import type { ServedDocument } from '../../openapi/served.ts';
import { apiReferencePage } from '../../views/api-reference.ts';
import { apiReferenceTextPage } from '../../views/api-reference-text.ts';
import { RENDERER_FILE, renderer } from '../../api-reference/renderer.ts';
import { compressFile, IMMUTABLE, sendFile, type ServedFile } from '../../static/served-file.ts';
import { sendPage, sendSamePage } from './send.ts';

const RENDERER_PATH = `/docs/${RENDERER_FILE}`;
const DOCUMENT_PATH = '/api/v1/openapi.json';
const INTERACTIVE_PATH = '/docs/interactive';

/**
 * GET /docs, the API reference as HTML made from the OpenAPI document (no script: on a phone it reads at once), and
 * GET /docs/interactive, the same document in Scalar (search, "try it"), whose renderer GET /docs/scalar-{version}.js
 * is compressed once per process when first asked for (~0.8 s of CPU, mostly in the thread pool), so that a process
 * that never serves it, or a test's, pays nothing at start.
 */
export const docsPages: FastifyPluginAsync<Deps & { openApi: ServedDocument }> = async (app, { config, openApi }) => {
  let textPage: Promise<ServedFile> | undefined;
  app.get('/docs', { schema: { hide: true } }, async (request, reply) => {
    textPage ??= compressFile(
      apiReferenceTextPage(openApi.document(), { documentUrl: DOCUMENT_PATH, interactiveUrl: INTERACTIVE_PATH }).html,
      { brotliQuality: 9 },
    );
    return sendSamePage(request, reply, await textPage);
  });

  app.get(INTERACTIVE_PATH, { schema: { hide: true } }, async (request, reply) => {
    const origin = `${request.protocol}://${request.host}`;
    const page = apiReferencePage({
      documentUrl: DOCUMENT_PATH,
      rendererUrl: RENDERER_PATH,
      apiUrl: `${origin}/api/v1`,
      environment: config.environment,
    });
    return sendPage(reply, page, { renderer: true });
  });

  app.get(RENDERER_PATH, { schema: { hide: true } }, async (request, reply) => {
    return sendFile(request, reply, await renderer(), { cacheControl: IMMUTABLE });
  });
};
