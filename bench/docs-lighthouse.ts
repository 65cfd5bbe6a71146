import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { launch } from 'chrome-launcher';
import { serviceOnSqlite } from './services.ts';

interface DocsFigures {
  /** Lighthouse's performance score, 0–100, mobile (its default: a mid-range phone, slow 4G, 4× CPU slowdown). */
  score: number;
  firstContentfulPaintMs: number;
  largestContentfulPaintMs: number;
  totalBlockingTimeMs: number;
  cumulativeLayoutShift: number;
  /** Bytes the page transferred, compressed as sent. */
  transferredBytes: number;
  renderBlocking: number;
}

/**
 * Lighthouse's mobile performance audit of each of `paths` on a fresh service (Debian's Chromium, headless), the
 * median run of `runs` by score.
 */
async function measureDocs(env: Record<string, string>, paths: string[], runs = 3): Promise<Map<string, DocsFigures>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'paykit-docs-'));
  const service = await serviceOnSqlite(dataDir, env);
  const chrome = await launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const measured = new Map<string, DocsFigures>();
    for (const path of paths) measured.set(path, await audit(`${service.process.baseUrl}${path}`, chrome.port, runs));
    return measured;
  } finally {
    chrome.kill();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function audit(url: string, port: number, runs: number): Promise<DocsFigures> {
  // The page's files are made and compressed on their first request: a visit before the audits keeps that out of them.
  await (await fetch(url)).arrayBuffer();
  await (await fetch(new URL('/api/v1/openapi.json', url))).arrayBuffer();
  const figures: DocsFigures[] = [];
  for (let run = 0; run < runs; run++) {
    const result = await lighthouse(url, { port, onlyCategories: ['performance'], logLevel: 'error' });
    const { audits, categories } = result!.lhr;
    figures.push({
      score: Math.round((categories['performance']!.score ?? 0) * 100),
      firstContentfulPaintMs: Math.round(audits['first-contentful-paint']!.numericValue!),
      largestContentfulPaintMs: Math.round(audits['largest-contentful-paint']!.numericValue!),
      totalBlockingTimeMs: Math.round(audits['total-blocking-time']!.numericValue!),
      cumulativeLayoutShift: audits['cumulative-layout-shift']!.numericValue!,
      transferredBytes: audits['total-byte-weight']!.numericValue!,
      renderBlocking:
        (
          (audits['render-blocking-resources'] ?? audits['render-blocking-insight'])?.details as
            { items?: unknown[] } | undefined
        )?.items?.length ?? 0,
    });
  }
  figures.sort((a, b) => a.score - b.score);
  return figures[Math.floor(figures.length / 2)]!;
}

/** `npm run bench`'s table: /docs (the HTML reference) and /docs/interactive (Scalar) as Lighthouse sees them on a phone. */
export async function printDocsFigures(env: Record<string, string>): Promise<void> {
  const measured = await measureDocs(env, ['/docs', '/docs/interactive']);
  console.log('\nAPI reference, Lighthouse mobile (slow 4G, 4x CPU slowdown; the median of 3 runs):');
  console.table(
    [...measured].map(([path, figures]) => ({
      page: path,
      performance: figures.score,
      'FCP ms': figures.firstContentfulPaintMs,
      'LCP ms': figures.largestContentfulPaintMs,
      'TBT ms': figures.totalBlockingTimeMs,
      CLS: Number(figures.cumulativeLayoutShift.toFixed(3)),
      'KB sent': Math.round(figures.transferredBytes / 1024),
      'render-blocking': figures.renderBlocking,
    })),
  );
}
