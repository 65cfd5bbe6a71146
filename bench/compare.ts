import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServiceProcess, type ServiceProcess } from '../test/support/process.ts';
import { send } from '../test/support/http.ts';
import { scenarios, type Load } from './scenarios.ts';
import { median } from './median.ts';
import { load, type LoadResult } from './load.ts';
import { BENCH_AUTH, BENCH_CLIENT, basicAuthorization } from './credentials.ts';

/**
 * Throughput of one scenario on two or more checkouts of the service, side by side on the embedded database, in
 * interleaved rounds, e.g. a branch against the commit it started from
 * (`before=$(mktemp -d)`, `git archive <commit> | tar -x -C "$before"`, then `ln -s "$PWD/node_modules" "$before"/`):
 *
 *   node bench/compare.ts 'POST /requests (with' [rounds] [dir,dir…]
 *
 * The scenario is the first of bench/scenarios.ts whose name starts with the argument. A round loads each checkout in
 * turn for BENCH_SECONDS (default 5); the machine drifts between rounds, so besides each checkout's median it prints
 * the median of its rounds' ratios to the first checkout's in the same round.
 */
const [prefix = 'POST /requests (with', roundsArgument = '5', dirsArgument = '.'] = process.argv.slice(2);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const headers = { authorization: basicAuthorization(BENCH_AUTH), 'content-type': 'application/json' };

interface Target {
  dir: string;
  service: ServiceProcess;
  load: Load;
  rounds: LoadResult[];
}

const dataDir = mkdtempSync(join(tmpdir(), 'paykit-compare-'));
const targets: Target[] = [];
try {
  for (const [i, dir] of dirsArgument.split(',').entries()) {
    const service = await startServiceProcess(
      { ...BENCH_CLIENT, PAYKIT_DATA_DIR: join(dataDir, String(i)), DATABASE_URL: '' },
      resolve(dir),
    );
    const api = async (method: 'GET' | 'POST', path: string, json?: unknown) => {
      const answer = await send(service.baseUrl, method, `/api/v1${path}`, {
        auth: BENCH_AUTH,
        ...(json === undefined ? {} : { json }),
      });
      return { status: answer.status, body: answer.body };
    };
    let chosen: Load | undefined;
    // The scenarios before the one measured set up its data, as in npm run bench.
    for (const scenario of scenarios()) {
      const prepared = await scenario.prepare(api);
      if (scenario.name.startsWith(prefix)) {
        chosen = prepared;
        break;
      }
    }
    targets.push({ dir, service, load: chosen!, rounds: [] });
    if (!chosen) throw new Error(`no scenario starts with "${prefix}"`);
  }
  for (let round = 0; round < Number(roundsArgument); round++) {
    for (const target of targets) {
      const { method, path, body, keyed } = target.load;
      const result = await load({
        url: `${target.service.baseUrl}${path}`,
        method,
        headers,
        ...(body ? { body } : {}),
        keyed,
        duration: SECONDS,
        warmUp: round === 0,
      });
      if (result.non2xx || result.errors)
        throw new Error(
          `${target.dir}: ${result.non2xx} non-2xx answers, ${result.errors} errors: ${target.service.output().slice(-3000)}`,
        );
      target.rounds.push(result);
    }
  }
  console.log(
    `${prefix}…: requests per second on the embedded database, median of ${roundsArgument} rounds of ${SECONDS} s, 50 connections`,
  );
  const first = targets[0]!;
  for (const target of targets) {
    const perSecond = target.rounds.map((round) => round.requestsPerSecond);
    // Each round against the first checkout's in the same round: the machine's drift between rounds cancels out.
    const paired = median(perSecond.map((figure, round) => figure / first.rounds[round]!.requestsPerSecond));
    console.log(
      `  ${target.dir}: ${median(perSecond).toFixed(0)} req/s, p99 ${median(target.rounds.map((round) => round.p99Ms))} ms; ` +
        `against ${first.dir} round by round ${paired.toFixed(3)} (rounds: ${perSecond.map((figure) => figure.toFixed(0)).join(' ')})`,
    );
  }
} finally {
  for (const target of targets) await target.service.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
