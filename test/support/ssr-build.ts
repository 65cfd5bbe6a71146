import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { minifyLiterals } from '../../server/script-tag/bundle.ts';

type ServerRenderer = typeof import('../../src/ssr/index.ts');

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * `paykit/ssr` as the package ships it: bundled, with its templates minified exactly like the script tag's (a
 * server-rendered element hydrates only with the template strings that rendered it). Built where Node finds lit.
 */
export async function builtServerRenderer(): Promise<ServerRenderer> {
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
  const dir = mkdtempSync(join(root, 'node_modules/.cache/paykit-ssr-'));
  try {
    const outfile = join(dir, 'ssr.mjs');
    await build({
      entryPoints: ['src/ssr/index.ts'],
      absWorkingDir: root,
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      outfile,
      plugins: [minifyLiterals],
      logLevel: 'warning',
    });
    return (await import(outfile)) as ServerRenderer;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
