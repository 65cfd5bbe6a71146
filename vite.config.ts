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

/**
 * `npm run build`: the npm package's entries: the elements (`paykit`), the React and Vue adapters (`paykit/react`,
 * `paykit/vue`), which share the elements' chunk, and the server renderer (`paykit/ssr`). lit, React and Vue are
 * left to the user's bundler, so a page has one copy of each.
 */
export default defineConfig({
  plugins: [minifyLiterals],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    lib: {
      entry: { paykit: 'src/index.ts', react: 'wrappers/react/index.ts', vue: 'wrappers/vue/index.ts', ssr: 'src/ssr/index.ts' },
      formats: ['es'],
    },
    rollupOptions: { external: [/^lit(\/|$)/, /^lit-html(\/|$)/, /^@lit\//, /^@lit-labs\//, /^react(\/|$)/, /^react-dom(\/|$)/, /^vue(\/|$)/, /^@vue\//] },
  },
});
