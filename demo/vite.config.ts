import { defineConfig } from 'vite';
import { demoBackend } from './backend/plugin.ts';

/** The demo pages, served by Vite with the demo's own small back end mounted under /demo-api. */
export default defineConfig({
  root: 'demo',
  clearScreen: false,
  logLevel: 'warn',
  plugins: [demoBackend()],
});
