import { defineConfig } from 'vite';

/**
 * `npm run build`: the npm package's browser entries: the elements (`paykit`) and the React and Vue adapters
 * (`paykit/react`, `paykit/vue`), which share the elements' chunk. lit, React and Vue are left to the user's
 * bundler, so a page has one copy of each.
 */
export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    lib: {
      entry: { paykit: 'src/index.ts', react: 'wrappers/react/index.ts', vue: 'wrappers/vue/index.ts' },
      formats: ['es'],
    },
    rollupOptions: { external: [/^lit(\/|$)/, /^lit-html(\/|$)/, /^@lit\//, /^react(\/|$)/, /^react-dom(\/|$)/, /^vue(\/|$)/, /^@vue\//] },
  },
});
