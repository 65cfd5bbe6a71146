import { defineConfig } from 'vite';

/** `npm run build`: the npm package's browser entry, with lit left to the user's bundler. */
export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    lib: {
      entry: { paykit: 'src/index.ts' },
      formats: ['es'],
    },
    rollupOptions: { external: [/^lit/, /^@lit\//] },
  },
});
