import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions, Metafile, OnResolveArgs, Plugin, PluginBuild } from 'esbuild';
import { compressFile, type ServedFile } from '../static/served-file.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The elements the loader fetches when one appears, each from its own entry (`src/{tag}.ts`, which defines its tag
 * when imported). `<pay-button>` is not among them: the loader carries it (src/script-tag/loader.ts).
 */
export const FETCHED_ELEMENTS = ['request-payment-button', 'transactions-table'] as const;

/** The declared browser floor: package.json's `browserslist`. */
export function browserFloor(): string[] {
  return (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { browserslist: string[] }).browserslist;
}

/** esbuild's targets for the browser floor: syntax beyond it is lowered, or the build fails. */
export async function browserTargets(): Promise<string[]> {
  const { default: toEsbuild } = await import('browserslist-to-esbuild');
  return toEsbuild(browserFloor());
}

/**
 * Minifies the HTML and CSS inside the sources' `html` and `css` templates (minify-literals), so the sources stay
 * written for people and the browser still gets compact text. The application's own files only.
 */
export const minifyLiterals: Plugin = {
  name: 'paykit-minify-literals',
  setup(build) {
    build.onLoad({ filter: /[\\/](src|wrappers)[\\/].*\.ts$/ }, async ({ path }) => {
      const { minifyHTMLLiterals } = await import('minify-literals');
      const source = await readFile(path, 'utf8');
      return { contents: (await minifyHTMLLiterals(source, { fileName: path }))?.code ?? source, loader: 'ts' };
    });
  },
};

export interface ScriptTagBundle {
  /** `/paykit.js`: the loader with Lit, the elements' base and the pay button, and the names of the current files. */
  loader: ServedFile;
  /** `/paykit.json`: the same names, for a page's server to write modulepreload hints. */
  manifest: ServedFile;
  /** The content-hashed files under `/paykit/`, by name. */
  files: Map<string, ServedFile>;
  /** Each element's module and then every file it imports, by tag; none for the pay button, which is in the loader. */
  elements: Record<string, string[]>;
  /** The texts of each language besides English, by its BCP 47 primary subtag (`es`, `fr`, `de`). */
  languages: Record<string, string[]>;
}

/** An output's file name and every file of the build it imports statically, itself first: what must arrive before it runs. */
function staticClosure(metafile: Metafile, output: string): string[] {
  const seen = new Set([output]);
  for (const file of seen) {
    for (const { path, kind, external } of metafile.outputs[file]!.imports)
      if (kind === 'import-statement' && !external) seen.add(path);
  }
  return [...seen].map((file) => basename(file));
}

/** A module's path as the metafile names it: relative to the repository. */
const inRepository = (path: string) => relative(root, path);

/** `build.resolve` from inside an onResolve callback, without running that callback again. */
const resolveAgain = (build: PluginBuild, { path, importer, kind, resolveDir }: OnResolveArgs) =>
  build.resolve(path, { importer, kind, resolveDir, pluginData: resolveAgain });

/**
 * The loader's `import()`s (the languages, the QR encoder) stay imports, of the specifier `to` gives for the module's
 * path (and a name for its file: the specifier's last segment).
 */
function importedLater(to: (path: string, name: string) => string): Plugin {
  return {
    name: 'paykit-imported-later',
    setup(build) {
      build.onResolve({ filter: /./ }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.pluginData === resolveAgain) return undefined;
        const path = inRepository((await resolveAgain(build, args)).path);
        return { path: to(path, basename(args.path).replace(/\.\w+$/, '')), external: true };
      });
    },
  };
}

/** In the files the loader fetches, any module the loader bundles is taken from the loader, `/paykit.js`. */
function fromLoader(inLoader: Set<string>): Plugin {
  return {
    name: 'paykit-from-loader',
    setup(build) {
      build.onResolve({ filter: /./ }, async (args) => {
        if (args.kind === 'entry-point' || args.pluginData === resolveAgain) return undefined;
        const resolved = await resolveAgain(build, args);
        return inLoader.has(inRepository(resolved.path)) ? { path: '../paykit.js', external: true } : resolved;
      });
    },
  };
}

/** Every name a fetched file imports from the loader, which the loader must export (src/script-tag/lent.ts). */
function namesTakenFromLoader(code: string): string[] {
  return [...code.matchAll(/import\s*\{([^}]*)\}\s*from\s*"\.\.\/paykit\.js"/g)].flatMap(([, names]) =>
    names!.split(',').map((name) => name.trim().split(/\s+as\s+/)[0]!),
  );
}

/**
 * The script tag's files, built from source once per process (the service runs from the repository, so they can
 * never be older than the code beside them). `/paykit.js` is the loader with everything a pay button needs (Lit,
 * the elements' base, the pay button), so that a page with the README's one script tag has a working pay button
 * one download after the page. The other elements, their lazily loaded parts (the console), Lit's hydration support,
 * each language's texts and the QR code encoder are files of their own, each named by a hash of its content, so its
 * URL never changes meaning; what they share with the loader they import from it. Three passes: the loader's
 * module list, then the other files, then the loader with their names.
 */
/**
 * `steadyNames`: the loader names the other files without their content hashes. For the byte budgets' test only: a
 * hash that changed with another file moved the loader's minified names (esbuild picks them by the file's letters).
 */
export async function buildScriptTag({ steadyNames = false } = {}): Promise<ScriptTagBundle> {
  const { build } = await import('esbuild');
  const target = await browserTargets();
  const common: BuildOptions & { define: Record<string, string> } = {
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    minify: true,
    target,
    write: false,
    metafile: true,
    tsconfig: `${root}tsconfig.json`,
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
  };
  const loaderEntry = 'src/script-tag/loader.ts';
  const named = (text: string) => (steadyNames ? text.replace(/-[A-Z0-9]{8}\.js/g, '-HASHHASH.js') : text);
  const names = (elements: object, hydration: string[], languages: object) => ({
    ...common.define,
    PAYKIT_ELEMENTS: named(JSON.stringify(elements)),
    PAYKIT_HYDRATION: named(JSON.stringify(hydration)),
    PAYKIT_LANGUAGES: named(JSON.stringify(languages)),
  });

  const onDemand = new Map<string, string>();
  const probe = await build({
    ...common,
    entryPoints: [loaderEntry],
    define: names({}, [], {}),
    plugins: [importedLater((path, name) => (onDemand.set(path, name), path))],
  });
  const inLoader = new Set(Object.keys(probe.metafile!.inputs));

  const files = {
    ...common,
    outdir: 'paykit',
    entryNames: '[name]-[hash]',
    plugins: [minifyLiterals, fromLoader(inLoader)],
  };
  // What the loader imports on demand (each language's texts, the QR code encoder): each file whole in itself.
  const later = await build({
    ...files,
    entryPoints: Object.fromEntries([...onDemand].map(([path, name]) => [name, path])),
  });
  // The other elements and Lit's hydration support, and the chunks they share.
  const fetched = await build({
    ...files,
    entryPoints: {
      ...Object.fromEntries(FETCHED_ELEMENTS.map((tag) => [tag, `src/${tag}.ts`])),
      hydration: 'src/script-tag/hydration.ts',
    },
    splitting: true,
    chunkNames: 'chunk-[hash]',
  });
  const metafile: Metafile = { inputs: {}, outputs: { ...later.metafile!.outputs, ...fetched.metafile!.outputs } };
  const outputFiles = [...later.outputFiles!, ...fetched.outputFiles!];
  const outputOf = (entry: string) =>
    Object.keys(metafile.outputs).find((file) => metafile.outputs[file]!.entryPoint === entry)!;
  const closureOf = (entry: string) => staticClosure(metafile, outputOf(entry));
  const elements = {
    'pay-button': [],
    ...Object.fromEntries(FETCHED_ELEMENTS.map((tag) => [tag, closureOf(`src/${tag}.ts`)])),
  };
  const hydration = closureOf('src/script-tag/hydration.ts');
  // Each language's texts (src/locales/{language}.ts): the file an element imports when its page speaks that language.
  const languages = Object.fromEntries(
    [...onDemand.keys()].flatMap((path) =>
      /^src\/locales\/\w+\.ts$/.test(path) ? [[basename(path, '.ts'), closureOf(path)]] : [],
    ),
  );

  const loader = await build({
    ...common,
    entryPoints: [loaderEntry],
    define: names(elements, hydration, languages),
    plugins: [minifyLiterals, importedLater((path) => named(`./paykit/${basename(outputOf(path))}`))],
  });
  const lent = new Set(Object.values(loader.metafile!.outputs)[0]!.exports);
  for (const file of outputFiles) {
    const missing = namesTakenFromLoader(file.text).filter((name) => !lent.has(name));
    if (missing.length)
      throw new Error(
        `${basename(file.path)} imports ${missing.join(', ')} from /paykit.js, which does not export them: add them to src/script-tag/lent.ts`,
      );
  }
  const compressed = await Promise.all(
    outputFiles.map(async (file) => [basename(file.path), await compressFile(file.text)] as const),
  );
  return {
    loader: await compressFile(loader.outputFiles![0]!.text),
    manifest: await compressFile(JSON.stringify({ elements, hydration, languages })),
    files: new Map(compressed),
    elements,
    languages,
  };
}
