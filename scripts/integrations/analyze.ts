import { fileURLToPath } from 'node:url';
// @ts-expect-error The analyzer ships no types for its command line.
import { cli } from '@custom-elements-manifest/analyzer/cli.js';
import type { Manifest } from './model.ts';

export const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The manifest of the element sources as the analyzer writes it (paths of src/), kept in memory; its modules in
 * the order of their paths (the analyzer's file search finds them in any order).
 */
export async function analyze(): Promise<Manifest> {
  const config = fileURLToPath(new URL('cem.config.ts', import.meta.url));
  const manifest = (await cli({ argv: ['analyze', '--config', config], cwd: root, noWrite: true })) as Manifest;
  manifest.modules.sort((a, b) => a.path.localeCompare(b.path));
  return manifest;
}
