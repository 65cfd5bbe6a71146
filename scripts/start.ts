import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve as absolutePath } from 'node:path';
import { createServer } from 'vite';
import { PaykitClient } from 'paykit/client';
import { demoBackend } from '../demo/backend/plugin.ts';
import type { DemoMerchant } from '../demo/backend/routes.ts';
import { sampleApplication } from '../demo/backend/sample-application.ts';

/**
 * `npm start`: the service on the embedded database plus the Vite demo, with a sandbox client whose
 * credentials are kept in the data folder so every start reuses them.
 */
const dataDir = process.env.PAYKIT_DATA_DIR ?? '.paykit';
const port = Number(process.env.PORT ?? 4010);
const demoPort = Number(process.env.DEMO_PORT ?? 5173);
const serviceUrl = `http://localhost:${port}`;

function demoCredentials(): { clientId: string; secret: string } {
  const file = join(dataDir, 'demo-credentials.json');
  if (dataDir !== 'memory' && existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const credentials = { clientId: 'demo_partner', secret: `sk_demo_${randomBytes(24).toString('base64url')}` };
  if (dataDir !== 'memory') {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
  }
  return credentials;
}

const { clientId, secret } = demoCredentials();

const paykit = new PaykitClient({ clientId, secretKey: secret, baseUrl: serviceUrl });

/** The approved demo merchant the storefront sells for: made on the first start, reused afterwards. */
async function demoMerchant(): Promise<DemoMerchant> {
  const file = join(dataDir, 'demo-merchant.json');
  if (dataDir !== 'memory' && existsSync(file)) {
    const saved: DemoMerchant = JSON.parse(readFileSync(file, 'utf8'));
    if ((await paykit.merchants.list()).some((m) => m.merchant_id === saved.merchant_id)) return saved;
  }
  const created = await paykit.merchants.onboard(sampleApplication('Corner Bakery'));
  await paykit.merchants.approve(created.merchant_id);
  const merchant = {
    merchant_id: created.merchant_id,
    merchant_key: created.merchant_key,
    public_key: created.public_key,
  };
  if (dataDir !== 'memory') writeFileSync(file, JSON.stringify(merchant, null, 2), { mode: 0o600 });
  return merchant;
}
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: String(port),
  PAYKIT_ENV: 'sandbox',
  PAYKIT_DATA_DIR: dataDir,
  PAYKIT_CLIENT_ID: clientId,
  PAYKIT_CLIENT_SECRET: secret,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
};
delete env.DATABASE_URL;

const service = spawn(process.execPath, ['server/main.ts'], { env, stdio: 'inherit' });
service.on('exit', (code) => {
  console.error(`The service stopped (exit ${code}).`);
  process.exit(code ?? 1);
});

for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${serviceUrl}/health`)).ok) break;
  } catch {
    if (i > 300) throw new Error('the service did not start within 30 s');
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
}

/**
 * Vite's pre-bundled dependencies, kept with the data: Vite takes no lock between processes, so two demos sharing
 * node_modules/.vite (two starts side by side, as the end-to-end tests make) rebuild it under each other, and a page
 * waits for dependencies that never arrive. A `memory` start keeps them in a folder of its own, removed when it stops.
 */
const viteCache =
  dataDir === 'memory' ? mkdtempSync(join(tmpdir(), 'paykit-vite-')) : absolutePath(dataDir, 'vite-cache');
// On exit, whoever ends the process: Vite's own SIGTERM handler exits before ours runs.
if (dataDir === 'memory') process.once('exit', () => rmSync(viteCache, { recursive: true, force: true }));

const merchant = await demoMerchant();
const demo = await createServer({
  configFile: 'demo/vite.config.ts',
  cacheDir: viteCache,
  server: { port: demoPort, strictPort: false },
  plugins: [demoBackend({ serviceUrl, clientId, secretKey: secret, merchant })],
});
await demo.listen();
const demoUrl = demo.resolvedUrls?.local[0] ?? `http://localhost:${demoPort}/`;

console.log(`
  Paykit is running (sandbox, data in ${dataDir}/)

  Demo            ${demoUrl}   (storefront of the demo merchant "Corner Bakery")
                  ${demoUrl}back-office.html   (refunds, holds, live webhooks)
                  ${demoUrl}onboarding.html · ${demoUrl}react.html · ${demoUrl}vue.html
  Service         ${serviceUrl}/api/v1
  API reference   ${serviceUrl}/docs
  Test portal     ${serviceUrl}/portal

  Sandbox client  id ${clientId}
                  secret ${secret}

  Try it:  curl -u ${clientId}:${secret} ${serviceUrl}/api/v1/merchant

  Ctrl-C stops both.
`);

const stop = async () => {
  service.removeAllListeners('exit');
  service.kill('SIGTERM');
  await demo.close();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
