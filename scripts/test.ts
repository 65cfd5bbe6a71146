import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { dropTestSchemas } from './drop-test-schemas.ts';

/**
 * `npm test`: the service suites with node's test runner and, beside them, the browser suites with Web Test Runner in
 * Chromium (the React adapter's suite twice: on React 19, then on React 18). All always run; the exit code is
 * non-zero when any fails, and the summary says how long the whole took. `npm run test:node` and `npm run
 * test:browser` run one side alone.
 */
const BROWSER_SUITES = new Set(['elements', 'wrappers']);

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    // support/ holds helpers; node_modules/ and the throwaway app are test/package/consumers' tools and output.
    if (entry.isDirectory()) return ['support', 'node_modules', 'consumers'].includes(entry.name) ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * Runs one step. Its output goes straight through, or, `buffered`, is printed whole when it ends, so that steps
 * running side by side do not interleave their lines.
 */
function runStep(name: string, command: string, args: string[], { env = {}, buffered = false }: { env?: Record<string, string>; buffered?: boolean } = {}): Promise<number> {
  if (!buffered) console.log(`\n▶ ${name}`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env } });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('exit', (code, signal) => {
      if (buffered) process.stdout.write(`\n▶ ${name}\n${output}`);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const only = process.argv[2];
const nodeFiles = readdirSync('test', { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !BROWSER_SUITES.has(entry.name) && entry.name !== 'support')
  .flatMap((entry) => testFiles(join('test', entry.name)))
  .sort();

const started = performance.now();
const webTestRunner = 'node_modules/@web/test-runner/dist/bin.js';
// The service suites and the browser suites share nothing (each starts its own services and databases): they run side
// by side, the browser suites' output printed when they end.
const [nodeResults, browserResults] = await Promise.all([
  (async (): Promise<[string, number][]> => {
    if (only && only !== 'node') return [];
    await dropTestSchemas();
    const code = await runStep('service suites', process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=3', ...nodeFiles]);
    await dropTestSchemas();
    return [['service suites (node --test)', code]];
  })(),
  (async (): Promise<[string, number][]> => {
    if (only && only !== 'browser') return [];
    const buffered = !only;
    return [
      ['browser suites (web-test-runner)', await runStep('browser suites', process.execPath, [webTestRunner], { buffered })],
      ['paykit/react on React 18 (web-test-runner)', await runStep('paykit/react on React 18', process.execPath, [webTestRunner], { env: { PAYKIT_TEST_REACT: '18' }, buffered })],
    ];
  })(),
]);
const results = [...nodeResults, ...browserResults];

console.log(`\nSummary (${Math.round((performance.now() - started) / 1000)} s):`);
for (const [name, code] of results) console.log(`  ${code === 0 ? 'passed' : 'FAILED'}  ${name}`);
process.exit(results.some(([, code]) => code !== 0) ? 1 : 0);
