// Plain JavaScript: loaded by the Web Test Runner config, which node runs without a TypeScript loader.
import { build } from 'esbuild';

/** What the browser suites import from React, by the name of the file each is served as. */
const PACKAGES = {
  react: 'react',
  'react-jsx-runtime': 'react/jsx-runtime',
  'react-jsx-dev-runtime': 'react/jsx-dev-runtime',
  'react-dom': 'react-dom',
  'react-dom-client': 'react-dom/client',
};
const PREFIX = '/__react-esm/';
const VIRTUAL = 'react-esm-entry';

/**
 * React 19 ships CommonJS only, which the browser cannot import. At server start this bundles the packages above
 * into ES modules with esbuild, once, in development mode (StrictMode's double mounting happens only there), with
 * `splitting` so that they share one copy of React; then it serves them from memory and points every import of
 * those specifiers at them. `alias` swaps packages, e.g. `{ react: 'react18', 'react-dom': 'react-dom18' }` to serve
 * React 18 (installed under those names) to the same imports.
 */
export function reactEsm({ mode = 'development', alias = {} } = {}) {
  const define = { 'process.env.NODE_ENV': JSON.stringify(mode) };

  /** The names a CommonJS module exports, found by running it bundled with the same aliases, as Node would load it. */
  async function exportNames(specifier) {
    const {
      outputFiles: [bundle],
    } = await build({
      stdin: { contents: `module.exports = require(${JSON.stringify(specifier)});`, resolveDir: process.cwd() },
      bundle: true,
      format: 'cjs',
      platform: 'node',
      write: false,
      alias,
      define,
      logLevel: 'warning',
    });
    const module = { exports: {} };
    new Function('module', 'exports', bundle.text)(module, module.exports);
    return Object.keys(module.exports).filter((name) => name !== 'default' && /^[A-Za-z_$][\w$]*$/.test(name));
  }

  /** @type {Map<string, string>} served path → code */
  const files = new Map();

  return {
    name: 'paykit-react-esm',

    async serverStart() {
      const entryPoints = Object.fromEntries(
        Object.entries(PACKAGES).map(([name, specifier]) => [name, `${VIRTUAL}:${specifier}`]),
      );
      const result = await build({
        entryPoints,
        bundle: true,
        splitting: true,
        format: 'esm',
        target: 'es2022',
        write: false,
        outdir: '/out',
        chunkNames: 'chunk-[hash]',
        define,
        alias,
        logLevel: 'warning',
        plugins: [
          {
            name: 'cjs-named-exports',
            setup(esbuild) {
              esbuild.onResolve({ filter: new RegExp(`^${VIRTUAL}:`) }, (args) => ({
                path: args.path.slice(VIRTUAL.length + 1),
                namespace: VIRTUAL,
              }));
              // esbuild gives a CommonJS entry only a default export; name every export, as Node's loader does.
              esbuild.onLoad({ filter: /.*/, namespace: VIRTUAL }, async (args) => {
                const names = await exportNames(args.path);
                const source = JSON.stringify(args.path);
                return {
                  contents: `import cjs from ${source};\nexport default cjs;\nexport const { ${names.join(', ')} } = cjs;\n`,
                  resolveDir: process.cwd(),
                  loader: 'js',
                };
              });
            },
          },
        ],
      });
      for (const file of result.outputFiles) files.set(`${PREFIX}${file.path.slice('/out/'.length)}`, file.text);
    },

    resolveImport({ source, context }) {
      // The bundles' own imports of their shared chunks.
      if (context.path.startsWith(PREFIX) && source.startsWith('./')) return `${PREFIX}${source.slice(2)}`;
      for (const [name, specifier] of Object.entries(PACKAGES)) if (source === specifier) return `${PREFIX}${name}.js`;
      return undefined;
    },

    serve(context) {
      const code = files.get(context.path);
      if (code !== undefined) return { body: code, type: 'js' };
      return undefined;
    },
  };
}
