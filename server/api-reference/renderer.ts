import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Fastify from 'fastify';
import scalarApiReference from '@scalar/fastify-api-reference';
import { compressFile, type ServedFile } from '../static/served-file.ts';

/** The renderer's version names its file, so a browser may keep it for a year: a new version is a new name. */
const PACKAGE_JSON = join(dirname(createRequire(import.meta.url).resolve('@scalar/fastify-api-reference')), '..', 'package.json');
export const RENDERER_VERSION: string = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')).version;
export const RENDERER_FILE = `scalar-${RENDERER_VERSION}.js`;

/**
 * Scalar's standalone renderer, as its Fastify plugin serves it (the bundle is only reachable through the plugin),
 * taken once from a Fastify instance that never listens and served by us: compressed, and cached for a year, where
 * the plugin sends 4.9 MB uncompressed on every visit and adds pages and routes of its own we do not want.
 */
async function loadRenderer(): Promise<ServedFile> {
  const donor = Fastify({ logger: false });
  await donor.register(scalarApiReference, { routePrefix: '/reference', configuration: { url: '/openapi.json' } });
  const answer = await donor.inject({ method: 'GET', url: '/reference/js/scalar.js' });
  await donor.close();
  if (answer.statusCode !== 200 || !answer.body.includes('createApiReference')) {
    throw new Error(`@scalar/fastify-api-reference ${RENDERER_VERSION} no longer serves its renderer at js/scalar.js (${answer.statusCode}).`);
  }
  return compressFile(answer.rawPayload, { brotliQuality: 5 });
}

let loaded: Promise<ServedFile> | undefined;

/** The renderer, made once per process (a few seconds of the thread pool's time) and then kept in memory. */
export function renderer(): Promise<ServedFile> {
  loaded ??= loadRenderer().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}
