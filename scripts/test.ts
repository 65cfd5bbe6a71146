import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { dropTestSchemas } from './drop-test-schemas.ts';
import { drivesChromium, needsOwnProcess, slowBecause } from './test-files.ts';
import { runPool, type Finished, type Job } from './test-pool.ts';

/**
 * `npm test`: the service suites with node's test runner and the browser suites with Web Test Runner in Chromium (the
 * React adapter's suite twice: on React 19, then on React 18). All always run; the exit code is non-zero when any
 * fails, and the summary says how long each phase and the whole took, and which files were slowest.
 * `npm run test:node` and `npm run test:browser` run one side; `npm run test:quick` is the inner loop: the domain
 * rules and the service suites on SQLite, without Chromium, child processes, packing, crashes or PostgreSQL.
 * `node scripts/test.ts server` runs the service suites that drive no Chromium: .ci/run's pass on Node 22.
 *
 * Where the time went (docs/testing.md): each test file in a process of its own spent about a second and a half of
 * CPU loading the service before its first test, for 83 files that need nothing of their own. Those now share two
 * processes; the files that start processes, crash them, drive Chromium or check the process's globals keep their own.
 * Everything runs two at a time (the machine's two cores; three at once was no faster and made timing-bound tests
 * fail), the browser suites as two more jobs of the same pool, longest first by the previous run's times.
 */
const BROWSER_SUITES = new Set(['elements', 'wrappers']);
const TIMES_CACHE = 'node_modules/.cache/paykit/test-times.json';
const LANES = 2;
const SHARED_PROCESSES = 2;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    // support/ holds helpers; node_modules/ and the throwaway app are test/package/consumers' tools and output.
    if (entry.isDirectory())
      return ['support', 'node_modules', 'consumers'].includes(entry.name) ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function lastRunTimes(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(TIMES_CACHE, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/** A group's time is kept under its name without the file count, so it keeps its estimate when a file is added. */
const timeKey = (job: Job) => job.name.replace(/ \(\d+ files\)$/, '');

function keepTimes(finished: Finished[]): void {
  const kept = lastRunTimes();
  for (const { job, ms } of finished) kept[timeKey(job)] = Math.round(ms);
  mkdirSync(dirname(TIMES_CACHE), { recursive: true });
  writeFileSync(TIMES_CACHE, JSON.stringify(kept, null, 1));
}

// Every process of a run (test files, service processes, the CLI) loads the same sources: Node keeps their stripped and
// compiled code on disk, which spares each process start about a third of a second of CPU.
process.env.NODE_COMPILE_CACHE ??= resolve('node_modules/.cache/paykit/compile-cache');

const mode = process.argv[2] as 'node' | 'browser' | 'quick' | 'server' | undefined;
if (mode !== undefined && !['node', 'browser', 'quick', 'server'].includes(mode)) {
  console.error(`usage: node scripts/test.ts [node|browser|quick|server] (not ${mode})`);
  process.exit(2);
}

const SERVICE = 'service suites (node --test)';
const BROWSER = 'browser suites (web-test-runner)';
// Node 22 knows the flag by its experimental name only (renamed in 23.6); .ci/run runs the service suites on 22 too.
const NO_ISOLATION =
  Number(process.versions.node.split('.')[0]) >= 23 ? '--test-isolation=none' : '--experimental-test-isolation=none';
const nodeTest = (files: string[]) => ['--test', NO_ISOLATION, '--test-reporter=spec', ...files];

function serviceJobs(quickOnly: boolean, withoutChromium: boolean): Job[] {
  const files = readdirSync('test', { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !BROWSER_SUITES.has(entry.name) && entry.name !== 'support')
    .flatMap((entry) => testFiles(join('test', entry.name)))
    .sort()
    .map((file) => ({ file, source: readFileSync(file, 'utf8') }))
    .filter(({ source }) => !withoutChromium || !drivesChromium(source));
  const env: Record<string, string> = quickOnly ? { PAYKIT_TEST_DATABASES: 'sqlite' } : {};
  const shared = files
    .filter(({ file, source }) => !slowBecause(file, source) && !needsOwnProcess(source))
    .map(({ file }) => file);
  const alone = files
    .filter(({ file, source }) => (quickOnly ? !slowBecause(file, source) : true) && !shared.includes(file))
    .map(({ file }) => file);
  const groups = Array.from({ length: SHARED_PROCESSES }, (_, i) =>
    shared.filter((_file, index) => index % SHARED_PROCESSES === i),
  );
  return [
    ...groups.map((group, i) => ({
      name: `shared process ${i + 1}/${SHARED_PROCESSES} (${group.length} files)`,
      phase: SERVICE,
      args: nodeTest(group),
      env,
    })),
    ...alone.map((file) => ({ name: file, phase: SERVICE, args: nodeTest([file]), env })),
  ];
}

const webTestRunner = 'node_modules/@web/test-runner/dist/bin.js';
const browserJobs: Job[] = [
  { name: 'web-test-runner: elements and wrappers', phase: BROWSER, args: [webTestRunner] },
  {
    name: 'web-test-runner: paykit/react on React 18',
    phase: BROWSER,
    args: [webTestRunner],
    env: { PAYKIT_TEST_REACT: '18' },
  },
];

const jobs = [
  ...(mode === 'browser' ? [] : serviceJobs(mode === 'quick', mode === 'server')),
  ...(mode === undefined || mode === 'browser' ? browserJobs : []),
];
const started = performance.now();
const withPostgres = mode === undefined || mode === 'node' || mode === 'server';
if (withPostgres) await dropTestSchemas();
const times = lastRunTimes();
const finished = await runPool(jobs, LANES, (job) => times[timeKey(job)]);
if (withPostgres) await dropTestSchemas();
keepTimes(finished);

console.log('\nSlowest jobs:');
for (const { job, ms } of [...finished].sort((a, b) => b.ms - a.ms).slice(0, 10))
  console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${job.name}`);
const failed = finished.filter(({ code }) => code !== 0);
console.log(`\nSummary (${Math.round((performance.now() - started) / 1000)} s, ${LANES} at a time):`);
for (const phase of [SERVICE, BROWSER]) {
  const ran = finished.filter(({ job }) => job.phase === phase);
  if (ran.length === 0) continue;
  const span = Math.max(...ran.map((f) => f.startedAt + f.ms)) - Math.min(...ran.map((f) => f.startedAt));
  const ok = ran.every(({ code }) => code === 0);
  console.log(
    `  ${ok ? 'passed' : 'FAILED'}  ${phase}: ${ran.length} jobs, ${Math.round(span / 1000)} s from first start to last end, ${Math.round(ran.reduce((sum, f) => sum + f.ms, 0) / 1000)} s of job time`,
  );
}
for (const { job } of failed) console.log(`  FAILED  ${job.name}`);
process.exit(failed.length > 0 ? 1 : 0);
