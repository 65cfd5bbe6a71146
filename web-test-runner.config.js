import { existsSync } from 'node:fs';
import { chromeLauncher } from '@web/test-runner-chrome';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { fromRollup } from '@web/dev-server-rollup';
import rollupReplace from '@rollup/plugin-replace';
import { freePort, startBrowserService } from './test/support/browser-service.js';
import { reactEsm } from './test/support/wtr-react-esm.js';

const executablePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
if (!existsSync(executablePath)) {
  console.error(
    `Chromium is missing at ${executablePath}: install it (apt-get install -y chromium; bash .ci/run does) or set CHROME_PATH.`,
  );
  process.exit(1);
}

/** `PAYKIT_TEST_REACT=18` runs the React adapter's suite once more on React 18, installed as react18 and react-dom18. */
const react18 = process.env.PAYKIT_TEST_REACT === '18';
const react = react18 ? reactEsm({ alias: { react: 'react18', 'react-dom': 'react-dom18' } }) : reactEsm();

const service = await startBrowserService();
process.once('exit', () => service.stop());

/** Vue's esm-bundler builds leave their mode and feature flags to the bundler: fill them in as one would. */
const replace = fromRollup(rollupReplace);
const vueFlags = replace({
  include: ['**/node_modules/vue/**', '**/node_modules/@vue/**'],
  preventAssignment: true,
  values: {
    'process.env.NODE_ENV': JSON.stringify('development'),
    __VUE_OPTIONS_API__: 'true',
    __VUE_PROD_DEVTOOLS__: 'false',
    __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
  },
});

/**
 * Browser suites: the elements and wrappers in real headless Chromium (Debian's; nothing is downloaded),
 * against the real service started above; pages find it in `window.PAYKIT_TEST`. React is served as ES modules
 * built at start (it ships CommonJS only), version 19 or, with PAYKIT_TEST_REACT=18, 18; Vue gets its build flags replaced.
 */
export default {
  testRunnerHtml: (
    testFramework,
  ) => `<html><head><script>window.PAYKIT_TEST = ${JSON.stringify({ ...service.env, reactMajor: react18 ? 18 : 19 })};</script></head>
    <body><script type="module" src="${testFramework}"></script></body></html>`,
  // Not wtr's default 8000: scripts/test.ts runs the React 18 pass beside the main one, and both took 8000.
  port: await freePort(),
  files: react18 ? ['test/wrappers/react.test.ts'] : ['test/elements/**/*.test.ts', 'test/wrappers/**/*.test.ts'],
  nodeResolve: true,
  concurrency: 1,
  // A file's whole run, at most: the console's suite takes ~50 s alone and went past wtr's default 120 s under load.
  testsFinishTimeout: 300_000,
  testFramework: { config: { timeout: 10000 } },
  plugins: [
    react,
    vueFlags,
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' }),
    { name: 'paykit-service', serverStop: () => service.stop() },
  ],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath,
        headless: true,
        // ModuleMapDoNotCacheFailedFetch (Chromium 156) lets a module URL that failed be fetched again; Chromium 150,
        // Firefox and Safari keep the failure for the page's life. Off, so the loader is tested as those browsers run it.
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-dev-shm-usage',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
          '--disable-features=ModuleMapDoNotCacheFailedFetch',
        ],
      },
    }),
  ],
};
