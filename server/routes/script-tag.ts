import { fileURLToPath } from 'node:url';
import { basename } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The script-tag bundle and its lazily loaded chunks (the QR code encoder), made once per process from
 * source: the service runs from the repository, so the bundle can never be older than the code beside it.
 */
export async function scriptTagBundle(): Promise<Map<string, string>> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: { paykit: `${root}src/script-tag.ts` },
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    target: 'es2022',
    outdir: `${root}.paykit-bundle`,
    chunkNames: 'paykit-[name]-[hash]',
    write: false,
    tsconfig: `${root}tsconfig.json`,
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
  });
  return new Map(result.outputFiles.map((file) => [basename(file.path), file.text]));
}

/** GET /paykit.js: `<script type="module" src="{service}/paykit.js" data-public-key="pk_…">`, and its chunks. */
export const scriptTagRoute: FastifyPluginAsync = async (app) => {
  let files: Promise<Map<string, string>> | undefined;
  app.get<{ Params: { file: string } }>('/:file', { schema: { hide: true } }, async (request, reply) => {
    const { file } = request.params;
    if (!/^paykit(-[\w-]+)?\.js$/.test(file)) return reply.callNotFound();
    files ??= scriptTagBundle();
    const code = (await files).get(file);
    if (code === undefined) return reply.callNotFound();
    // A module script loaded from another origin needs CORS; the bundle is public.
    return reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('access-control-allow-origin', '*')
      .header('cache-control', file === 'paykit.js' ? 'public, max-age=300' : 'public, max-age=31536000, immutable')
      .send(code);
  });
};
