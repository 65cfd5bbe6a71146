import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './process.ts';

const run = promisify(execFile);
const BIN = process.env.PAYKIT_PG_BIN ?? '/usr/lib/postgresql/15/bin';
/** PostgreSQL refuses to run as root: as root, the cluster is the `postgres` user's. */
const AS_ROOT = userInfo().uid === 0;

/**
 * A throwaway PostgreSQL server a test owns, so that it may freeze it (SIGSTOP) without touching the shared one:
 * initdb in a temporary folder, on a free loopback port, trusting loopback connections. `fsync` is off: nothing in
 * it outlives the test. It keeps commit times (`pg_xact_commit_timestamp`), so a test can tell when a row committed.
 */
export class OwnPostgres {
  readonly dir: string;
  port = 0;

  constructor() {
    this.dir = mkdtempSync(join(tmpdir(), 'paykit-pg-'));
    if (AS_ROOT) chownSync(this.dir, postgresUid(), postgresGid());
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  async start(): Promise<this> {
    this.port = await freePort();
    const data = join(this.dir, 'data');
    await this.pg('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    const settings = `-p ${this.port} -c listen_addresses=127.0.0.1 -k ${this.dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c track_commit_timestamp=on`;
    await this.pg('pg_ctl', ['-D', data, '-o', settings, '-l', join(this.dir, 'log'), '-w', '-t', '60', 'start']);
    return this;
  }

  /** The server's processes: the postmaster and every child it forked. */
  processes(): number[] {
    const postmaster = Number(readFileSync(join(this.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number)
      .filter((pid) => {
        try {
          return (
            Number(
              readFileSync(`/proc/${pid}/stat`, 'utf8')
                .replace(/^.*\) /, '')
                .split(' ')[1],
            ) === postmaster
          );
        } catch {
          return false;
        }
      });
    return [postmaster, ...children];
  }

  /** Freezes every process of the server (as `kill -STOP`): connections stay open, nothing answers. */
  freeze(): void {
    for (const pid of this.processes()) process.kill(pid, 'SIGSTOP');
  }

  thaw(): void {
    for (const pid of this.processes()) process.kill(pid, 'SIGCONT');
  }

  async stop(): Promise<void> {
    try {
      this.thaw();
      await this.pg('pg_ctl', ['-D', join(this.dir, 'data'), '-m', 'immediate', '-w', 'stop']);
    } catch {
      // Never started, or already gone.
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async pg(command: string, args: string[]): Promise<void> {
    const path = join(BIN, command);
    await (AS_ROOT ? run('runuser', ['-u', 'postgres', '--', path, ...args]) : run(path, args));
  }
}

function postgresUid(): number {
  return Number(
    readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((line) => line.startsWith('postgres:'))!
      .split(':')[2],
  );
}

function postgresGid(): number {
  return Number(
    readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((line) => line.startsWith('postgres:'))!
      .split(':')[3],
  );
}
