import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/process.ts';
import { waitUntil } from '../support/wait.ts';

export interface DemoServers {
  dataDir: string;
  demoUrl: string;
  serviceUrl: string;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * `npm start` exactly as a newcomer runs it (its script, its conditions), on free loopback ports and a fresh data
 * folder (or the one given, kept when `keepData`); resolves once it printed its URLs and listens for its client's events.
 */
export async function startDemo({
  dataDir = mkdtempSync(join(tmpdir(), 'paykit-e2e-')),
  keepData = false,
} = {}): Promise<DemoServers> {
  const [port, demoPort] = [await freePort(), await freePort()];
  const child: ChildProcess = spawn(process.execPath, ['--conditions=paykit-source', 'scripts/start.ts'], {
    env: {
      ...process.env,
      PAYKIT_DATA_DIR: dataDir,
      PORT: String(port),
      DEMO_PORT: String(demoPort),
      LOG_LEVEL: 'warn',
    },
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
  const started = Date.now();
  const exited = () => (child.exitCode !== null ? `it exited with ${child.exitCode}` : undefined);
  try {
    await waitUntil(() => /Demo\s+(http\S+)/.test(output), {
      what: 'npm start printing its URLs',
      timeoutMs: 60_000,
      stopIf: exited,
    });
  } catch (error) {
    await stop();
    throw new Error(`npm start did not come up (${(error as Error).message}):\n${output}`);
  }
  const demoUrl = output.match(/Demo\s+(http\S+)/)![1]!.replace(/\/$/, '');
  // The demo registers its webhook endpoint once Vite listens; wait for it so no event of a journey is missed.
  const listening = async () =>
    (await (await fetch(`${demoUrl}/demo-api/webhook-endpoint`)).json())?.data?.listening === true;
  await waitUntil(listening, {
    what: `the demo listening for its client's events:\n${output}`,
    timeoutMs: 60_000 - (Date.now() - started),
    stopIf: exited,
  });
  return { dataDir, demoUrl, serviceUrl: `http://localhost:${port}`, output: () => output, stop };
}
