import { spawn } from 'node:child_process';

/** One command of a test run: a file, a group of files sharing a process, or a browser suite. */
export interface Job {
  name: string;
  phase: string;
  args: string[];
  env?: Record<string, string>;
}

export interface Finished {
  job: Job;
  code: number;
  startedAt: number;
  ms: number;
}

function runJob(job: Job): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, job.args, {
      env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0', ...job.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

/**
 * Runs `jobs` `lanes` at a time, longest first by `estimateMs` (the last run's times; unknown ones first, as they may be
 * long), so the run ends with short jobs side by side rather than a long one alone. Each job's output is printed whole
 * when it ends, so two jobs' lines never interleave.
 */
export async function runPool(
  jobs: Job[],
  lanes: number,
  estimateMs: (job: Job) => number | undefined,
): Promise<Finished[]> {
  const estimate = (job: Job) => estimateMs(job) ?? Number.POSITIVE_INFINITY;
  const queue = [...jobs].sort((a, b) => estimate(b) - estimate(a) || a.name.localeCompare(b.name));
  const finished: Finished[] = [];
  const lane = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const startedAt = performance.now();
      const { code, output } = await runJob(job);
      const ms = performance.now() - startedAt;
      console.log(
        `\n▶ ${job.name} (${job.phase}): ${code === 0 ? 'passed' : 'FAILED'} in ${(ms / 1000).toFixed(1)} s\n${output.trimEnd()}`,
      );
      finished.push({ job, code, startedAt, ms });
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, jobs.length) }, lane));
  return finished;
}
