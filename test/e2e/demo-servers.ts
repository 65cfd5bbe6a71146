import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/process.ts';

export interface DemoServers {
  dataDir: string;
  demoUrl: string;
  serviceUrl: string;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * `npm start` exactly as a newcomer runs it (its script, its conditions), on free loopback ports and a fresh data
 * folder (or the one given, kept when `keepData`); resolves once it printed its URLs and registered its webhook endpoint.
 */
export async function startDemo({ dataDir = mkdtempSync(join(tmpdir(), 'paykit-e2e-')), keepData = false } = {}): Promise<DemoServers> {
  const [port, demoPort] = [await freePort(), await freePort()];
  const child: ChildProcess = spawn(process.execPath, ['--conditions=paykit-source', 'scripts/start.ts'], {
    env: { ...process.env, PAYKIT_DATA_DIR: dataDir, PORT: String(port), DEMO_PORT: String(demoPort), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    if (!keepData) rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  while (!/Demo\s+(http\S+)/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`npm start did not come up:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const demoUrl = output.match(/Demo\s+(http\S+)/)![1]!.replace(/\/$/, '');
  // The demo registers its webhook endpoint once Vite listens; wait for it so no event of a journey is missed.
  for (;;) {
    const config = await (await fetch(`${demoUrl}/demo-api/webhook-endpoint`)).json().catch(() => undefined);
    if (config?.data?.registered) break;
    if (Date.now() > deadline) throw new Error(`the demo did not register its webhook endpoint:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { dataDir, demoUrl, serviceUrl: `http://localhost:${port}`, output: () => output, stop };
}
