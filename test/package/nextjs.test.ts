/**
 * The Next.js recipe of docs/widgets.md, run as a user runs it: the packed package installed into a fresh App Router
 * app (test/package/nextjs/) beside next, react and @lit-labs/ssr from npm, built with `next build` and served by
 * `next start`, then served by `next dev`; each page opened in Chromium against the real service. The pay button is
 * in the server's HTML (declarative shadow DOM), the script tag hydrates it, a click opens the pay page, and the
 * browser's console has no error and no warning (React's hydration mismatch, "declarative Shadow DOM is not being
 * parsed", the preload's credentials mode), while the same page without the recipe's two attributes
 * (app/without-attributes) has them.
 *
 * It installs Next.js (about 360 MB) and builds an app: about 50 CPU-seconds and 85 s on 2 cores with npm's cache
 * warm, over npm test's budget, so it runs when PAYKIT_TEST_NEXT=1 and says it skipped otherwise.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/chromium.ts';
import { approvedMerchant } from '../support/payments.ts';
import { freePort } from '../support/process.ts';
import { startService, type TestService } from '../support/service.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const enabled = process.env.PAYKIT_TEST_NEXT === '1';
const npm = (args: string[], cwd: string) =>
  run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, maxBuffer: 64 * 1024 * 1024 });

describe(
  'the Next.js App Router recipe',
  { timeout: 900_000, skip: enabled ? false : 'set PAYKIT_TEST_NEXT=1 to run it (it installs and builds Next.js)' },
  () => {
    let app: string;
    let service: TestService;
    let browser: Browser;
    let publicKey: string;
    const servers: ChildProcess[] = [];

    before(async () => {
      app = mkdtempSync(join(tmpdir(), 'paykit-next-'));
      cpSync(join(root, 'test/package/nextjs'), app, { recursive: true });
      await npm(['run', 'build'], root);
      await npm(['pack', '--ignore-scripts', '--pack-destination', app], root);
      const tarball = readdirSync(app).find((name) => name.endsWith('.tgz'))!;
      await npm(['install', '--prefer-offline', `./${tarball}`], app);
      [service, browser] = await Promise.all([startService(), launchChromium()]);
      await approvedMerchant(service);
      publicKey = (await service.api('GET', '/merchant')).body.data[0].public_data.public_key as string;
    });

    after(async () => {
      for (const server of servers) if (server.exitCode === null && server.pid) process.kill(-server.pid, 'SIGTERM');
      await browser?.close();
      await service?.close();
      if (app) rmSync(app, { recursive: true, force: true });
    });

    const env = () => ({
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      PAYKIT_URL: service.baseUrl,
      PAYKIT_PUBLIC_KEY: publicKey,
    });
    const next = (args: string[]) => [join(app, 'node_modules/next/dist/bin/next'), ...args];

    /** `next start` or `next dev` on a free port, in its own process group; resolves once it answers. */
    async function serve(command: 'start' | 'dev'): Promise<string> {
      const port = await freePort();
      const child = spawn(process.execPath, next([command, '-p', String(port), '-H', '127.0.0.1']), {
        cwd: app,
        env: env(),
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      servers.push(child);
      let output = '';
      child.stdout!.on('data', (chunk) => (output += chunk));
      child.stderr!.on('data', (chunk) => (output += chunk));
      const url = `http://127.0.0.1:${port}/`;
      const deadline = Date.now() + 120_000;
      for (;;) {
        const answer = await fetch(url).catch(() => undefined);
        if (answer?.ok) return url;
        if (child.exitCode !== null || Date.now() > deadline)
          throw new Error(`next ${command} did not answer:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }

    /** The page as a shopper meets it: the server's HTML, then hydration, then a click; the console's problems. */
    async function visit(url: string): Promise<string[]> {
      const served = await (await fetch(url)).text();
      assert.match(
        served,
        /<pay-button[^>]*><template [^>]*shadowrootmode="open"/,
        'the pay button is in the server’s HTML',
      );
      assert.match(served, /Pay \$25\.00/, 'with its label');
      const page = await browser.newPage();
      page.setDefaultTimeout(60_000);
      const problems: string[] = [];
      page.on(
        'console',
        (message) =>
          ['error', 'warning'].includes(message.type()) &&
          problems.push(`${message.type()}: ${message.text()} (${message.location().url})`),
      );
      page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
      try {
        // `next dev` compiles what the page asks for on demand and may reload it once that is done: start from a page
        // that asked for nothing more for a moment (a click before that could land on a page about to be replaced).
        await page.goto(url, { waitUntil: 'networkidle' });
        // Hydrated: defined, and its first update (which keeps the server's nodes) done.
        await page.waitForFunction(async () => {
          const button = document.querySelector('pay-button') as
            (HTMLElement & { updateComplete?: Promise<unknown>; hasUpdated?: boolean }) | null;
          return customElements.get('pay-button') && (await button?.updateComplete, button?.hasUpdated);
        });
        // `next dev` may still replace the page after that (once in CI, on the control page: the click landed on a
        // button about to go, and no dialog came): a press that opens nothing is tried again, three presses in all.
        // Whatever the replaced page logged stays in `problems`.
        const dialog = page.locator('pay-button').getByRole('dialog');
        for (let press = 1; ; press++) {
          await page.locator('pay-button').getByRole('button', { name: 'Pay $25.00' }).click();
          const missed = await dialog.waitFor({ timeout: 10_000 }).then(
            () => undefined,
            (error: Error) => error,
          );
          if (!missed) break;
          if (press === 3) assert.fail(`${missed.message}\nconsole: ${JSON.stringify(problems)}\npage: ${url}`);
        }
        await page.keyboard.press('Escape');
        await page.locator('pay-button').getByRole('dialog').waitFor({ state: 'hidden' });
        // Late messages (a failed preload is reported once the page's load settles).
        await page.waitForTimeout(1_000);
        return problems;
      } finally {
        await page.close();
      }
    }

    test('next build, then next start: the production page hydrates the server-rendered button, console clean', async () => {
      await run(process.execPath, next(['build']), { cwd: app, env: env(), maxBuffer: 64 * 1024 * 1024 }).catch(
        (error: { stdout: string; stderr: string }) =>
          assert.fail(`next build failed:\n${error.stdout}${error.stderr}`),
      );
      const url = await serve('start');
      assert.deepEqual(await visit(url), [], 'no error or warning in the console');
      // The control: the same page without the two attributes has the warning they remove.
      const control = await visit(`${url}without-attributes`);
      assert.ok(
        control.some((problem) =>
          /preload .* not used because the request credentials mode does not match/.test(problem),
        ),
        JSON.stringify(control),
      );
    });

    test('next dev: the same page in development, where React checks hydration, console clean', async () => {
      const url = await serve('dev');
      assert.deepEqual(await visit(url), [], 'no error or warning in the console');
      const control = await visit(`${url}without-attributes`);
      assert.ok(
        control.some((problem) => /declarative Shadow DOM is not being parsed/.test(problem)),
        JSON.stringify(control),
      );
      assert.ok(
        control.some((problem) => /^error: A tree hydrated but some attributes .* didn't match/.test(problem)),
        JSON.stringify(control),
      );
    });
  },
);
