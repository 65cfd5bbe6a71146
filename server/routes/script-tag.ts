import type { FastifyPluginAsync } from 'fastify';
import { buildScriptTag, FETCHED_ELEMENTS, type ScriptTagBundle } from '../script-tag/bundle.ts';
import { builtScriptTag } from '../script-tag/built-files.ts';
import { IMMUTABLE, sendFile } from '../static/served-file.ts';

/** Any page may load these files: module scripts need CORS. */
const ANY_PAGE = { anyOrigin: true };

export interface ScriptTagOptions {
  /** Seconds a browser may use the loader without asking again (then an If-None-Match costs it a 304); 60 unless given. */
  loaderMaxAge?: number;
}

/**
 * GET /paykit.js, the loader of `<script type="module" src="{service}/paykit.js" data-public-key="pk_…">` (with the
 * pay button in it), GET /paykit/{file}, the content-hashed modules it imports, and GET /paykit.json, their names per element (for
 * modulepreload hints in a page). Read on first use from what `npm run build` left in build/script-tag/, or built
 * then when the widgets' sources changed since.
 */
export const scriptTagRoute: FastifyPluginAsync<ScriptTagOptions> = async (app, { loaderMaxAge = 60 }) => {
  let bundle: Promise<ScriptTagBundle> | undefined;
  const current = () => (bundle ??= builtScriptTag(buildScriptTag));

  app.get('/paykit.js', { schema: { hide: true } }, async (request, reply) =>
    sendFile(request, reply, (await current()).loader, {
      ...ANY_PAGE,
      cacheControl: `public, max-age=${loaderMaxAge}`,
    }),
  );

  app.get('/paykit.json', { schema: { hide: true } }, async (request, reply) =>
    sendFile(request, reply, (await current()).manifest, {
      ...ANY_PAGE,
      cacheControl: `public, max-age=${loaderMaxAge}`,
      contentType: 'application/json',
    }),
  );

  app.get<{ Params: { file: string } }>('/paykit/:file', { schema: { hide: true } }, async (request, reply) => {
    const { file } = request.params;
    const { files, elements } = await current();
    const served = files.get(file);
    if (served) return sendFile(request, reply, served, { ...ANY_PAGE, cacheControl: IMMUTABLE });
    // An element's module from an earlier build, named by a loader cached before the service restarted: the
    // element's current module instead, which takes what it shares from that page's loader (src/script-tag/lent.ts
    // keeps those names stable). Never cached, as it changes with the next build.
    const tag = FETCHED_ELEMENTS.find((name) => new RegExp(`^${name}-\\w+\\.js$`).test(file));
    if (tag)
      return reply
        .code(307)
        .header('location', elements[tag]![0]!)
        .header('cache-control', 'no-store')
        .header('access-control-allow-origin', '*')
        .send();
    return reply.callNotFound();
  });
};
