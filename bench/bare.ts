import { spawn } from 'node:child_process';
import { freePort, untilAnswering } from '../test/support/process.ts';

/** Starts the baseline, a bare Fastify JSON route (bare-server.ts), in a process of its own. */
export async function startBare(): Promise<{ url: string; pid: number; stop: () => void }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-server.ts'], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/bare`;
  await untilAnswering(url, child);
  return { url, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}
