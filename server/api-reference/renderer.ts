import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Fastify from 'fastify';
import scalarApiReference from '@scalar/fastify-api-reference';
import { compressFile, type ServedFile } from '../static/served-file.ts';

/** The renderer's version names its file, so a browser may keep it for a year: a new version is a new name. */
const PACKAGE_JSON = join(
  dirname(createRequire(import.meta.url).resolve('@scalar/fastify-api-reference')),
  '..',
  'package.json',
);
const RENDERER_VERSION: string = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')).version;
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
    throw new Error(
      `@scalar/fastify-api-reference ${RENDERER_VERSION} no longer serves its renderer at js/scalar.js (${answer.statusCode}).`,
    );
  }
  return compressFile(withClosedComboboxesSaid(answer.body), { brotliQuality: 5 });
}

/** Scalar's code input, a combobox when it offers variables, leaves out aria-expanded while its list is closed. */
const COMBOBOX_EXPANDED = '"aria-expanded":ve.value?`true`:void 0,';
const COMBOBOX_EXPANDED_OR_NOT = '"aria-expanded":e.withVariables?(ve.value?`true`:`false`):void 0,';

/**
 * ARIA requires a combobox to say whether its list is open (axe: aria-required-attr); the credentials fields of
 * "try it" are such comboboxes. A renderer that no longer has that code is served as it is, and
 * test/pages/accessibility.test.ts says whether it needs a fix of its own.
 */
function withClosedComboboxesSaid(bundle: string): string {
  return bundle.replace(COMBOBOX_EXPANDED, COMBOBOX_EXPANDED_OR_NOT);
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
