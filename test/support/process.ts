import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { once } from 'node:events';

/** A free loopback port, found by binding port 0 and letting it go. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  return typeof address === 'object' && address ? address.port : 0;
}

export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/** Runs `npm run server`'s entry point as a real process and waits until /health answers. */
export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  // tsx compiles the service on start: on a busy 2-core machine that has taken over 20 s.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}: ${output}`);
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the service did not answer /health within 60 s: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    baseUrl,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      // Already ended: by an exit code, or by a signal (then exitCode stays null).
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const [code] = await once(child, 'exit');
      return code as number | null;
    },
  };
}

/** Runs a command to completion and returns its exit code and output. */
export async function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const [code] = await once(child, 'exit');
  return { code: code as number | null, output };
}
