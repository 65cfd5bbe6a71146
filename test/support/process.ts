import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { waitUntil } from './wait.ts';

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

/**
 * Whether process `pid` holds the socket listening on TCP `port`, by Linux's /proc (the socket's inode among the
 * process's files); true where there is no /proc to ask.
 */
function listensOn(pid: number | undefined, port: number): boolean {
  let table: string;
  try {
    table = readFileSync('/proc/net/tcp', 'utf8') + readFileSync('/proc/net/tcp6', 'utf8');
  } catch {
    return true;
  }
  const local = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const listening = new Set(
    table
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[1]?.endsWith(local) && fields[3] === '0A')
      .map((fields) => `socket:[${fields[9]}]`),
  );
  const fds = `/proc/${pid}/fd`;
  return readdirSync(fds).some((fd) => listening.has(readlinkSync(`${fds}/${fd}`)));
}

/**
 * Resolves once `child` listens on `url`'s port and `url` answers (any status). Fails, killing `child`, when nothing
 * answered within `seconds` (a busy 2-core machine has taken over 20 s to start one), or at once if `child` exited.
 * Whose answer it is matters: test jobs run side by side, and another job's service may take the port `freePort` gave
 * (then `child` fails to listen, and the other service would answer in its place: a wrong partner's 401).
 */
export async function untilAnswering(
  url: string,
  child: ChildProcess,
  output: () => string = () => '',
  seconds = 60,
): Promise<void> {
  const port = Number(new URL(url).port);
  try {
    await waitUntil(async () => listensOn(child.pid, port) && Boolean(await fetch(url)), {
      what: `an answer at ${url}`,
      timeoutMs: seconds * 1000,
      stopIf: () => (child.exitCode !== null ? `the process exited with ${child.exitCode}: ${output()}` : undefined),
    });
  } catch (error) {
    if (child.exitCode === null) child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${output()}`);
  }
}

/**
 * The partner a service process is started with (PAYKIT_CLIENT_ID and PAYKIT_CLIENT_SECRET in `env`), and the same
 * credentials as a caller sends them (`auth`), for the suites that start, stop and crash real processes.
 */
export function processPartner(name: string): {
  env: { PAYKIT_CLIENT_ID: string; PAYKIT_CLIENT_SECRET: string };
  auth: { id: string; secret: string };
} {
  const env = { PAYKIT_CLIENT_ID: `${name}_client`, PAYKIT_CLIENT_SECRET: `${name}-secret-0123456789` };
  return { env, auth: { id: env.PAYKIT_CLIENT_ID, secret: env.PAYKIT_CLIENT_SECRET } };
}

/**
 * Runs `npm run server`'s entry point as a real process and waits until /health answers. `cwd` runs another checkout's
 * (the bench compares checkouts side by side).
 */
export async function startServiceProcess(
  env: Record<string, string>,
  cwd?: string,
  tries = 3,
): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['server/main.ts'], {
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(cwd ? { cwd } : {}),
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await untilAnswering(`${baseUrl}/health`, child, () => output);
  } catch (error) {
    // Another job's process took the port between `freePort` and the listen: start again on another.
    if (tries > 1 && output.includes('EADDRINUSE')) return startServiceProcess(env, cwd, tries - 1);
    throw error;
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
export async function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const [code] = await once(child, 'exit');
  return { code: code as number | null, output };
}
