import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions, Metafile, Plugin } from 'esbuild';
import { compressFile, type ServedFile } from '../static/served-file.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The elements the loader defines, each from its own entry (`src/{tag}.ts`, which defines its tag when imported). */
export const ELEMENT_TAGS = ['pay-button', 'request-payment-button', 'transactions-table'] as const;

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
  /** `/paykit.js`: the loader, with the names of the current files built in. */
  loader: ServedFile;
  /** `/paykit.json`: the same names, for a page's server to write modulepreload hints. */
  manifest: ServedFile;
  /** The content-hashed files under `/paykit/`, by name. */
  files: Map<string, ServedFile>;
  /** Each element's module and then every file it imports, by tag. */
  elements: Record<string, string[]>;
  /** The texts of each language besides English, by its BCP 47 primary subtag (`es`, `fr`, `de`). */
  languages: Record<string, string[]>;
}

/** An output's file name and every file it imports statically, itself first: what must arrive before it runs. */
function staticClosure(metafile: Metafile, output: string): string[] {
  const seen = new Set([output]);
  for (const file of seen) {
    for (const { path, kind } of metafile.outputs[file]!.imports) if (kind === 'import-statement') seen.add(path);
  }
  return [...seen].map((file) => basename(file));
}

/**
 * The script tag's files, built from source once per process (the service runs from the repository, so they can
 * never be older than the code beside them): one module per element, the chunks they share (Lit, the base class),
 * lazily loaded chunks (the QR code encoder), Lit's hydration support, and the loader that knows their names.
 * Every file but the loader is named by a hash of its content, so its URL never changes meaning.
 */
export async function buildScriptTag(): Promise<ScriptTagBundle> {
  const { build } = await import('esbuild');
  const target = await browserTargets();
  const common: BuildOptions & { define: Record<string, string> } = {
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    minify: true,
    target,
    write: false,
    tsconfig: `${root}tsconfig.json`,
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    plugins: [minifyLiterals],
  };
  const modules = await build({
    ...common,
    entryPoints: {
      ...Object.fromEntries(ELEMENT_TAGS.map((tag) => [tag, `src/${tag}.ts`])),
      hydration: 'src/script-tag/hydration.ts',
    },
    splitting: true,
    metafile: true,
    outdir: 'paykit',
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
  });
  const metafile = modules.metafile!;
  const entries = Object.entries(metafile.outputs).filter(([, output]) => output.entryPoint);
  const closureOf = (entry: string) => staticClosure(metafile, entries.find(([, output]) => output.entryPoint === entry)![0]);
  const elements = Object.fromEntries(ELEMENT_TAGS.map((tag) => [tag, closureOf(`src/${tag}.ts`)]));
  const hydration = closureOf('src/script-tag/hydration.ts');
  // Each language's texts (src/locales/{language}.ts): the chunk an element imports when its page speaks that language.
  const languages = Object.fromEntries(Object.entries(metafile.outputs).flatMap(([file, output]) => {
    const source = Object.keys(output.inputs).find((input) => /^src\/locales\/\w+\.ts$/.test(input));
    return source ? [[basename(source, '.ts'), staticClosure(metafile, file)]] : [];
  }));

  const loader = await build({
    ...common,
    entryPoints: ['src/script-tag/loader.ts'],
    define: {
      ...common.define, PAYKIT_ELEMENTS: JSON.stringify(elements), PAYKIT_HYDRATION: JSON.stringify(hydration), PAYKIT_LANGUAGES: JSON.stringify(languages),
    },
  });
  const files = await Promise.all(modules.outputFiles!.map(async (file) => [basename(file.path), await compressFile(file.text)] as const));
  return {
    loader: await compressFile(loader.outputFiles![0]!.text),
    manifest: await compressFile(JSON.stringify({ elements, hydration, languages })),
    files: new Map(files),
    elements,
    languages,
  };
}
