import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { startServiceProcess } from '../test/support/process.ts';
import { send } from '../test/support/http.ts';
import { startBare } from './bare.ts';
import { scenarios, type Load } from './scenarios.ts';
import { median } from './median.ts';
import { processCpuMs } from './process-cpu.ts';
import { perRequest } from './load.ts';
import { MINIMAL_PATH, startMinimalWriteServer } from './minimal.ts';
import { BENCH_AUTH, BENCH_CLIENT, basicAuthorization } from './credentials.ts';

/**
 * CPU time of the service process per request, against the bare route's: a figure a busy machine hardly moves, where
 * throughput swings with whatever else runs. Compares checkouts of the service side by side, e.g. the branch point
 * and a branch (`git archive <commit> | tar -x -C /tmp/before`, with a node_modules link):
 *
 *   node --import tsx bench/cpu-per-request.ts 'POST /requests' [rounds] [dir,dir…]
 *
 * The scenario is the first of bench/scenarios.ts whose name starts with the argument; each checkout serves it on an
 * embedded database of its own. Loopback only, a fixed number of requests per round. Besides each checkout's median,
 * it prints the median of its rounds' ratios to the first checkout's: the machine drifts between rounds (every
 * checkout's figure can fall by a third over nine rounds), and a round's checkouts run a few seconds apart.
 *
 * `minimal` in place of a checkout measures bench/minimal-write-server.ts (POST /customers/add only) on a copy of the
 * database the checkout before it was prepared on: the least this stack does for that call.
 */
const [prefix = 'GET /merchant (1', roundsArgument = '3', dirsArgument = '.'] = process.argv.slice(2);
const REQUESTS = 10_000;
const headers = { authorization: basicAuthorization(BENCH_AUTH), 'content-type': 'application/json' };


/** Microseconds of CPU per request, after a warm-up of 2,000. */
async function cpuPerRequest(pid: number, url: string, load?: Load): Promise<number> {
  const options = { url, method: load?.method ?? 'GET', headers, connections: 50, pipelining: 1, ...perRequest(load?.body, load?.keyed) };
  await autocannon({ ...options, amount: 2000 });
  const before = processCpuMs(pid);
  const result = await autocannon({ ...options, amount: REQUESTS });
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return ((processCpuMs(pid) - before) * 1000) / REQUESTS;
}

const bare = await startBare();
const dataDir = mkdtempSync(join(tmpdir(), 'paykit-cpu-'));
const targets: { dir: string; pid: number; stop: () => void; url: string; load: Load; figures: number[] }[] = [];
try {
  for (const [i, dir] of dirsArgument.split(',').entries()) {
    if (dir === 'minimal') {
      const previous = targets.at(-1);
      if (!previous || previous.load.path !== MINIMAL_PATH) throw new Error('minimal follows a checkout, and serves POST /customers/add only');
      const minimal = await startMinimalWriteServer(join(dataDir, String(i - 1), 'paykit.sqlite'), join(dataDir, String(i)));
      targets.push({ dir, pid: minimal.pid, stop: minimal.stop, url: `${minimal.baseUrl}${MINIMAL_PATH}`, load: previous.load, figures: [] });
      continue;
    }
    const service = await startServiceProcess({ ...BENCH_CLIENT, PAYKIT_DATA_DIR: join(dataDir, String(i)), DATABASE_URL: '' }, resolve(dir));
    const { baseUrl } = service;
    targets.push({ dir, pid: service.child.pid!, stop: () => void service.stop(), url: '', load: { method: 'GET', path: '' }, figures: [] });
    const api = async (method: 'GET' | 'POST', path: string, json?: unknown) => {
      const answer = await send(baseUrl, method, `/api/v1${path}`, { auth: BENCH_AUTH, ...(json === undefined ? {} : { json }) });
      return { status: answer.status, body: answer.body };
    };
    // The scenarios before the one measured set up its data, as in npm run bench.
    for (const scenario of scenarios()) {
      const load = await scenario.prepare(api);
      if (!scenario.name.startsWith(prefix)) continue;
      Object.assign(targets.at(-1)!, { url: `${baseUrl}${load.path}`, load });
      break;
    }
    if (!targets.at(-1)!.url) throw new Error(`no scenario starts with "${prefix}"`);
  }
  const bareFigures: number[] = [];
  for (let round = 0; round < Number(roundsArgument); round++) {
    bareFigures.push(await cpuPerRequest(bare.pid, bare.url));
    for (const target of targets) target.figures.push(await cpuPerRequest(target.pid, target.url, target.load));
  }
  const bareUs = median(bareFigures);
  console.log(`${prefix}…: CPU µs per request, median of ${roundsArgument} rounds of ${REQUESTS}; the bare route ${bareUs.toFixed(0)} µs`);
  const first = targets[0]!;
  for (const target of targets) {
    const us = median(target.figures);
    // Each round against the first checkout's in the same round: the machine's drift between rounds cancels out.
    const paired = median(target.figures.map((figure, round) => figure / first.figures[round]!));
    console.log(
      `  ${target.dir}: ${us.toFixed(0)} µs, ratio (bare / it) ${(bareUs / us).toFixed(2)}; ` +
        `against ${first.dir} round by round ${paired.toFixed(3)} (rounds: ${target.figures.map((figure) => figure.toFixed(0)).join(' ')})`,
    );
  }
} finally {
  for (const target of targets) target.stop();
  bare.stop();
  // The services may still be closing their databases.
  await new Promise((done) => setTimeout(done, 500));
  rmSync(dataDir, { recursive: true, force: true });
}
