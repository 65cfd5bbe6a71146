import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { dropTestSchemas } from './drop-test-schemas.ts';

/**
 * `npm test`: the service suites with node's test runner, then the browser suites with Web Test Runner in Chromium
 * (the React adapter's suite twice: on React 19, then on React 18). All always run; the exit code is non-zero when any
 * fails, and the summary says how long the whole took. `npm run test:node` and `npm run test:browser` run one side.
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

function runStep(name: string, command: string, args: string[], { env = {} }: { env?: Record<string, string> } = {}): Promise<number> {
  console.log(`\n▶ ${name}`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const only = process.argv[2];
const nodeFiles = readdirSync('test', { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !BROWSER_SUITES.has(entry.name) && entry.name !== 'support')
  .flatMap((entry) => testFiles(join('test', entry.name)))
  .sort();

const started = performance.now();
const webTestRunner = 'node_modules/@web/test-runner/dist/bin.js';
const results: [string, number][] = [];
if (!only || only === 'node') {
  await dropTestSchemas();
  results.push(['service suites (node --test)', await runStep('service suites', process.execPath, ['--test', '--test-concurrency=2', ...nodeFiles])]);
  await dropTestSchemas();
}
// After the service suites, not beside them: the suites are bound by the machine's CPU, so side by side (or more
// service files at once) saved no time and made timing-bound tests fail.
if (!only || only === 'browser') {
  results.push(['browser suites (web-test-runner)', await runStep('browser suites', process.execPath, [webTestRunner])]);
  results.push(['paykit/react on React 18 (web-test-runner)', await runStep('paykit/react on React 18', process.execPath, [webTestRunner], { env: { PAYKIT_TEST_REACT: '18' } })]);
}

console.log(`\nSummary (${Math.round((performance.now() - started) / 1000)} s):`);
for (const [name, code] of results) console.log(`  ${code === 0 ? 'passed' : 'FAILED'}  ${name}`);
process.exit(results.some(([, code]) => code !== 0) ? 1 : 0);
