import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';
import { minifyLiterals } from '../vite.config.ts';

const source = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const PAYKIT_TAGS = new Set(['pay-button', 'request-payment-button', 'transactions-table']);

/**
 * The demo pages, served by Vite. The pages import `paykit`, `paykit/react` and `paykit/vue` as a user would;
 * here those names point at the sources so the demo needs no build. `npm start` adds the demo's back end.
 */
export default defineConfig({
  root: 'demo',
  clearScreen: false,
  logLevel: 'warn',
  resolve: {
    alias: [
      { find: /^paykit$/, replacement: source('src/index.ts') },
      { find: /^paykit\/react$/, replacement: source('wrappers/react/index.ts') },
      { find: /^paykit\/vue$/, replacement: source('wrappers/vue/index.ts') },
      { find: /^paykit\/ssr$/, replacement: source('src/ssr/index.ts') },
    ],
  },
  // The one option Vue needs for custom elements: leave Paykit's tags to the browser. The templates of the elements
  // are minified as in the package and the script tag, so pages rendered with paykit/ssr here hydrate.
  plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => PAYKIT_TAGS.has(tag) } } }), minifyLiterals],
});
