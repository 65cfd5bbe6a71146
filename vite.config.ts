import { defineConfig, type Plugin } from 'vite';

/**
 * The HTML and CSS inside the elements' `html` and `css` templates, minified: the sources stay written for people.
 * Everything that ships is minified the same way (this build, the script tag's in server/script-tag/bundle.ts):
 * server-rendered markup hydrates only with the very template strings that rendered it.
 */
export const minifyLiterals: Plugin = {
  name: 'paykit-minify-literals',
  async transform(code, id) {
    if (!/[\\/](src|wrappers)[\\/].*\.ts$/.test(id)) return null;
    const { minifyHTMLLiterals } = await import('minify-literals');
    const result = await minifyHTMLLiterals(code, { fileName: id });
    return result && { code: result.code, map: result.map?.toString() };
  },
};

/** The package's entries, by the file name each gets in dist/. */
const entries = {
  paykit: 'src/index.ts',
  'pay-button': 'src/pay-button.ts',
  'request-payment-button': 'src/request-payment-button.ts',
  'transactions-table': 'src/transactions-table.ts',
  react: 'wrappers/react/index.ts',
  'react/pay-button': 'wrappers/react/pay-button.ts',
  'react/request-payment-button': 'wrappers/react/request-payment-button.ts',
  'react/transactions-table': 'wrappers/react/transactions-table.ts',
  vue: 'wrappers/vue/index.ts',
  'vue-compiler': 'wrappers/vue/compiler.ts',
  ssr: 'src/ssr/index.ts',
};

/**
 * `npm run build`: the npm package's entries: the elements (`paykit`, and `paykit/pay-button` and its siblings, one
 * element each), the React and Vue adapters (`paykit/react`, `paykit/react/pay-button` and its siblings, `paykit/vue`), which share the elements' chunks, the Vue
 * template compiler's options (`paykit/vue/compiler`) and the server renderer (`paykit/ssr`). Lit, React and Vue are
 * left to the user's bundler, so a page has one copy of each.
 */
export default defineConfig({
  plugins: [minifyLiterals],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    lib: { entry: entries, formats: ['es'] },
    rollupOptions: {
      external: [
        /^lit(\/|$)/,
        /^lit-html(\/|$)/,
        /^lit-element(\/|$)/,
        /^@lit\//,
        /^@lit-labs\//,
        /^react(\/|$)/,
        /^react-dom(\/|$)/,
        /^vue(\/|$)/,
        /^@vue\//,
      ],
      output: {
        // A bundle drops module directives, so the React entries get their own back: Next.js's App Router then takes
        // `paykit/react` (and `paykit/react/pay-button`, …) as client code even when a Server Component imports it.
        banner: (chunk) => (chunk.isEntry && /^react(\/|$)/.test(chunk.name) ? "'use client';" : ''),
      },
    },
  },
});
