import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';
import { minifyLiterals } from '../vite.config.ts';
import { compilerOptions } from '../wrappers/vue/compiler.ts';

const source = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

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
  // paykit/vue/compiler's options: leave Paykit's tags to the browser and bind their property-only members as
  // properties. The templates of the elements are minified as in the package and the script tag, so pages rendered
  // with paykit/ssr here hydrate.
  plugins: [vue({ template: { compilerOptions } }), minifyLiterals],
  // Every dependency the pages load, pre-bundled when the server starts. Left to discovery, one found late (qrcode is
  // imported when a QR code is first drawn) makes Vite bundle them again and reload every open page: on a fresh
  // clone that reloaded the back office in the middle of an end-to-end journey.
  optimizeDeps: {
    include: [
      'lit-element',
      'lit-html/is-server.js',
      '@lit/task',
      'qrcode',
      'react',
      'react/jsx-dev-runtime',
      'react-dom/client',
      'vue',
    ],
  },
});
