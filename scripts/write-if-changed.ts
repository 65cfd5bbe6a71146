import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * Writes `text` to `path` only when it differs from what is there. Generated sources are imported by the demo's
 * pages; rewriting one unchanged still tells a running Vite it changed, which reloads every open page (in `npm test`
 * the package test's build ran beside the end-to-end journeys and reloaded their pages mid-journey).
 */
export function writeIfChanged(path: string, text: string): void {
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return;
  writeFileSync(path, text);
}
