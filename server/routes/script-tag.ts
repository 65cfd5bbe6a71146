import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BUILT = `${root}dist/paykit-tag.js`;

/** The script-tag bundle: the built file when there is one, else bundled once from source (development). */
async function bundle(): Promise<string> {
  if (existsSync(BUILT)) return readFile(BUILT, 'utf8');
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [`${root}src/script-tag.ts`],
    bundle: true,
    format: 'esm',
    minify: true,
    target: 'es2022',
    write: false,
    tsconfig: `${root}tsconfig.json`,
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
  });
  return result.outputFiles[0]!.text;
}

/** GET /paykit.js: `<script type="module" src="{service}/paykit.js" data-public-key="pk_…">`. */
export const scriptTagRoute: FastifyPluginAsync = async (app) => {
  let code: Promise<string> | undefined;
  app.get('/paykit.js', { schema: { hide: true } }, async (_request, reply) => {
    code ??= bundle();
    // A module script loaded from another origin needs CORS; the bundle is public.
    return reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('access-control-allow-origin', '*')
      .header('cache-control', 'public, max-age=300')
      .send(await code);
  });
};
