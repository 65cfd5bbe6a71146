import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createServer } from 'vite';

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

async function partner(method: string, path: string, body?: unknown) {
  const response = await fetch(`${serviceUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${answer.message}`);
  return answer.data;
}

/** The approved demo merchant the storefront sells for: made on the first start, reused afterwards. */
async function demoMerchant(): Promise<{ merchant_id: string; merchant_key: string; public_key: string }> {
  const file = join(dataDir, 'demo-merchant.json');
  if (dataDir !== 'memory' && existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    const merchants: { merchant_id: string }[] = await partner('GET', '/merchant');
    if (merchants.some((m) => m.merchant_id === saved.merchant_id)) return saved;
  }
  const { sampleApplication } = await import('../demo/backend/sample-application.ts');
  const created = await partner('POST', '/onboarding', sampleApplication('Corner Bakery'));
  await partner('POST', '/approve-merchant', { merchant_id: created.merchant_id });
  const merchant = { merchant_id: created.merchant_id, merchant_key: created.merchant_key, public_key: created.public_key };
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

const service = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env, stdio: 'inherit' });
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

const merchant = await demoMerchant();
process.env.PAYKIT_DEMO_MERCHANT_KEY = merchant.merchant_key;
process.env.PAYKIT_DEMO_MERCHANT_ID = merchant.merchant_id;
process.env.PAYKIT_DEMO_PUBLIC_KEY = merchant.public_key;
process.env.PAYKIT_SERVICE_URL = serviceUrl;
process.env.PAYKIT_CLIENT_ID = clientId;
process.env.PAYKIT_CLIENT_SECRET = secret;
const demo = await createServer({ configFile: 'demo/vite.config.ts', server: { port: demoPort, strictPort: false } });
await demo.listen();
const demoUrl = demo.resolvedUrls?.local[0] ?? `http://localhost:${demoPort}/`;

console.log(`
  Paykit is running (sandbox, data in ${dataDir}/)

  Demo            ${demoUrl}   (storefront of the demo merchant "Corner Bakery")
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
