import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startServiceProcess, untilAnswering, type ServiceProcess } from '../test/support/process.ts';

/** Resident memory of a process, MB (Linux). */
const residentMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function bareFastify(): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['bench/bare-fastify.ts'], {
    env: { ...process.env, PORT: String(port) },
    stdio: 'ignore',
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await untilAnswering(`${baseUrl}/health`, child);
  return { child, baseUrl, output: () => '', stop: async () => (child.kill(), null) };
}

/**
 * Cold start (spawn to the first answer of /health, Node stripping the types included) and memory after 2 s idle: the service
 * on its embedded database beside Fastify alone, alternately, median of `runs`.
 */
export async function measureFootprint(env: Record<string, string>, runs = 3): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'paykit-footprint-'));
  const figures: Record<string, { startMs: number[]; mb: number[] }> = {
    'Paykit service (SQLite)': { startMs: [], mb: [] },
    'bare Fastify': { startMs: [], mb: [] },
  };
  for (let run = 0; run < runs; run++) {
    for (const [name, start] of [
      ['Paykit service (SQLite)', () => startServiceProcess({ PAYKIT_DATA_DIR: dataDir, DATABASE_URL: '', ...env })],
      ['bare Fastify', bareFastify],
    ] as const) {
      const started = performance.now();
      const service = await start();
      figures[name]!.startMs.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      figures[name]!.mb.push(residentMb(service.child.pid!));
      await service.stop();
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(`\nCold start and idle memory (median of ${runs}, alternately):`);
  console.table(
    Object.entries(figures).map(([process, f]) => ({
      process,
      'cold start ms': Math.round(median(f.startMs)),
      'idle RSS MB': Math.round(median(f.mb)),
    })),
  );
}
