import { mkdir, readFile, readdir, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import type { ServedFile } from '../static/served-file.ts';
import type { ScriptTagBundle } from './bundle.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Where `npm run build` (or the first service process that needed them) leaves the script tag's files. */
export const BUILT_SCRIPT_TAG_DIR = join(root, 'build', 'script-tag');

/** What `manifest.json` in the folder lists: the names of every file, and what the bundle says of them. */
interface BuiltManifest {
  files: string[];
  elements: ScriptTagBundle['elements'];
  languages: ScriptTagBundle['languages'];
}

const ENCODED = [
  ['identity', ''],
  ['br', '.br'],
  ['gzip', '.gz'],
] as const;

/**
 * The script tag's files from `dir` when they were built after the last change to the widgets' sources; else built
 * now (`build`) and written there, so the next process only reads them. A service process then neither runs esbuild
 * nor compresses at its first `/paykit.js`, which cost ~1 s and ~100 MB.
 */
export async function builtScriptTag(
  build: () => Promise<ScriptTagBundle>,
  {
    dir = BUILT_SCRIPT_TAG_DIR,
    changedAt = sourcesChangedAt,
  }: { dir?: string; changedAt?: () => Promise<number> } = {},
): Promise<ScriptTagBundle> {
  const kept = await readBuilt(dir).catch(() => undefined);
  if (kept && kept.builtAt >= (await changedAt())) return kept.bundle;
  const bundle = await build();
  await writeBuilt(dir, bundle);
  return bundle;
}

/**
 * Writes `bundle` into `dir`, each file by rename and the manifest last, so that a reader (another process starting
 * at the same moment) sees a whole build, never a file half written.
 */
export async function writeBuilt(dir: string, bundle: ScriptTagBundle): Promise<void> {
  await mkdir(dir, { recursive: true });
  const replace = async (name: string, content: Buffer | string) => {
    const temporary = join(dir, `.${name}.${process.pid}`);
    await writeFile(temporary, content);
    await rename(temporary, join(dir, name));
  };
  const named: [string, ServedFile][] = [
    ['paykit.js', bundle.loader],
    ['paykit.json', bundle.manifest],
    ...bundle.files,
  ];
  for (const [name, file] of named) {
    for (const [encoding, suffix] of ENCODED) await replace(name + suffix, file[encoding]);
  }
  const manifest: BuiltManifest = {
    files: [...bundle.files.keys()],
    elements: bundle.elements,
    languages: bundle.languages,
  };
  await replace('manifest.json', JSON.stringify(manifest));
}

async function readBuilt(dir: string): Promise<{ bundle: ScriptTagBundle; builtAt: number }> {
  const manifestPath = join(dir, 'manifest.json');
  const builtAt = (await stat(manifestPath)).mtimeMs;
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as BuiltManifest;
  const read = async (name: string): Promise<ServedFile> => {
    const [identity, br, gzip] = await Promise.all(ENCODED.map(([, suffix]) => readFile(join(dir, name + suffix))));
    return {
      identity: identity!,
      br: br!,
      gzip: gzip!,
      tag: createHash('sha256').update(identity!).digest('base64url').slice(0, 22),
    };
  };
  const files = new Map(await Promise.all(manifest.files.map(async (name) => [name, await read(name)] as const)));
  return {
    bundle: {
      loader: await read('paykit.js'),
      manifest: await read('paykit.json'),
      files,
      elements: manifest.elements,
      languages: manifest.languages,
    },
    builtAt,
  };
}

/** The last time a file the widgets are built from changed: `src/` (the elements, the loader) and package.json. */
async function sourcesChangedAt(): Promise<number> {
  const entries = await readdir(join(root, 'src'), { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  const times = await Promise.all(
    [...files, join(root, 'package.json')].map(async (file) => (await stat(file)).mtimeMs),
  );
  return Math.max(...times);
}
