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

/** A job still running after this long is stuck (the slowest takes about 150 s here): it is killed and fails. */
const JOB_TIMEOUT_MS = Number(process.env.PAYKIT_TEST_JOB_TIMEOUT_MS ?? 600_000);
const running = new Set<number>();
/** Each job leads a process group of its own, so that it is killed with what it started (a service, a browser). */
const killGroup = (pid: number) => {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {} // the group has already ended
};
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => (running.forEach(killGroup), process.exit(130)));

function runJob(job: Job): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0', ...job.env };
    const child = spawn(process.execPath, job.args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const pid = child.pid!;
    running.add(pid);
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      output += `\n${job.name} was still running after ${JOB_TIMEOUT_MS / 1000} s: killed\n`;
      killGroup(pid);
    }, JOB_TIMEOUT_MS);
    // A process the job left behind could hold its output open forever: once the job exits, its group goes too.
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      running.delete(pid);
      killGroup(pid);
      const finish = () => resolve({ code: code ?? (signal ? 1 : 0), output });
      // …and one outside it (started detached) cannot keep the run waiting.
      const held = setTimeout(() => (child.stdout.destroy(), child.stderr.destroy(), finish()), 5_000);
      child.on('close', () => (clearTimeout(held), finish()));
    });
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
