import negotiate from '@fastify/accept-negotiator';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { buildScriptTag, ELEMENT_TAGS, type ScriptTagBundle, type ServedFile } from '../script-tag/bundle.ts';

export interface ScriptTagOptions {
  /** Seconds a browser may use the loader without asking again (then an If-None-Match costs it a 304); 60 unless given. */
  loaderMaxAge?: number;
}

const ENCODINGS = ['br', 'gzip', 'identity'] as const;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Sends one file in the best encoding the browser accepts, with an ETag per encoding; a matching If-None-Match
 * gets a 304. Every answer varies by Accept-Encoding, and any page may load it (module scripts need CORS).
 */
function sendFile(request: FastifyRequest, reply: FastifyReply, file: ServedFile, cacheControl: string, contentType = 'text/javascript; charset=utf-8') {
  const encoding = negotiate(request.headers['accept-encoding'] ?? 'identity', [...ENCODINGS]) ?? 'identity';
  const etag = `"${file.tag}${encoding === 'identity' ? '' : `-${encoding}`}"`;
  reply
    .header('content-type', contentType)
    .header('access-control-allow-origin', '*')
    .header('cache-control', cacheControl)
    .header('vary', 'Accept-Encoding')
    .header('etag', etag);
  const known = (request.headers['if-none-match'] ?? '').split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (known.includes(etag) || known.includes('*')) return reply.code(304).send();
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.send(file[encoding]);
}

/**
 * GET /paykit.js, the loader of `<script type="module" src="{service}/paykit.js" data-public-key="pk_…">`,
 * GET /paykit/{file}, the content-hashed modules it imports, and GET /paykit.json, their names per element (for
 * modulepreload hints in a page). Built once per process, on first use.
 */
export const scriptTagRoute: FastifyPluginAsync<ScriptTagOptions> = async (app, { loaderMaxAge = 60 }) => {
  let bundle: Promise<ScriptTagBundle> | undefined;
  const current = () => (bundle ??= buildScriptTag());

  app.get('/paykit.js', { schema: { hide: true } }, async (request, reply) =>
    sendFile(request, reply, (await current()).loader, `public, max-age=${loaderMaxAge}`));

  app.get('/paykit.json', { schema: { hide: true } }, async (request, reply) =>
    sendFile(request, reply, (await current()).manifest, `public, max-age=${loaderMaxAge}`, 'application/json'));

  app.get<{ Params: { file: string } }>('/paykit/:file', { schema: { hide: true } }, async (request, reply) => {
    const { file } = request.params;
    const { files, elements } = await current();
    const served = files.get(file);
    if (served) return sendFile(request, reply, served, IMMUTABLE);
    // An element's module from an earlier build, named by a loader cached before the service restarted: the
    // element's current module instead. Never cached, as it changes with the next build.
    const tag = ELEMENT_TAGS.find((name) => new RegExp(`^${name}-\\w+\\.js$`).test(file));
    if (tag) return reply.code(307).header('location', elements[tag]![0]!).header('cache-control', 'no-store').header('access-control-allow-origin', '*').send();
    return reply.callNotFound();
  });
};
