// Plain JavaScript: loaded by the Web Test Runner config, which node runs without a TypeScript loader.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { startFlakyProxy } from './flaky-proxy.js';
import { waitUntil } from './wait.ts';

const credentials = { id: 'browser_tests', secret: 'browser-tests-secret-0123456789' };
const basic = `Basic ${Buffer.from(`${credentials.id}:${credentials.secret}`).toString('base64')}`;

/** A port the system picked as free (a few ports may race for it only if taken in the same instant). */
export async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

async function call(baseUrl, method, path, body) {
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: basic, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${answer.message}`);
  return answer.data;
}

/**
 * A second merchant, paid out (#45) without moving the clock the other suites read: two bank payments its bank approved
 * (available the day they are approved), paid out by hand; and a session token that grants its payouts. Null from a
 * service without payouts.
 */
async function payoutsSession(baseUrl, application) {
  const merchant = await call(baseUrl, 'POST', '/onboarding', application);
  await call(baseUrl, 'POST', '/approve-merchant', { merchant_id: merchant.merchant_id });
  await call(baseUrl, 'PUT', '/payouts/settings', { merchant_key: merchant.merchant_key, interval: 'manual' });
  for (const amount of ['80.00', '45.50']) {
    const link = await call(baseUrl, 'POST', '/requests', {
      merchant_key: merchant.merchant_key,
      amount,
      order_id: `payout-${amount}`,
    });
    const paid = await call(baseUrl, 'POST', '/sandbox/pay', {
      pay_link: link.pay_link,
      method: 'ach',
      routing_number: '110000000',
      account_number: '000123456789',
    });
    await call(baseUrl, 'POST', '/update-ach', {
      merchant_key: merchant.merchant_key,
      transaction_id: paid.transaction_id,
      new_status: 'approved',
    });
  }
  await call(baseUrl, 'POST', '/payouts', { merchant_key: merchant.merchant_key });
  return call(baseUrl, 'POST', '/widgets/sessions', {
    merchant_key: merchant.merchant_key,
    features: { payouts: true },
  });
}

/**
 * The real service for the browser suites: a process on a loopback port with a sandbox client and an approved
 * merchant, plus what the test pages need to reach it (never the client secret).
 */
export async function startBrowserService() {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PAYKIT_DATA_DIR: 'memory',
      PAYKIT_PUBLIC_URL: baseUrl,
      PAYKIT_CLIENT_ID: credentials.id,
      PAYKIT_CLIENT_SECRET: credentials.secret,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitUntil(async () => (await fetch(`${baseUrl}/health`)).ok, {
    what: 'the service for the browser tests to start',
    timeoutMs: 30_000,
    stopIf: () => (child.exitCode !== null ? `it exited with ${child.exitCode}` : undefined),
  });
  const application = JSON.parse(
    readFileSync(new URL('../../docs/examples/application.json', import.meta.url), 'utf8'),
  );
  const merchant = await call(baseUrl, 'POST', '/onboarding', application);
  await call(baseUrl, 'POST', '/approve-merchant', { merchant_id: merchant.merchant_id });
  const session = await call(baseUrl, 'POST', '/widgets/sessions', { merchant_key: merchant.merchant_key });
  // A few transactions for the table to list.
  for (const amount of ['12.00', '7.50', '30.00']) {
    const link = await call(baseUrl, 'POST', '/requests', {
      merchant_key: merchant.merchant_key,
      amount,
      order_id: `browser-${amount}`,
    });
    await call(baseUrl, 'POST', '/sandbox/pay', {
      pay_link: link.pay_link,
      method: 'card',
      card_number: '4242424242424242',
      exp_month: 12,
      exp_year: 2035,
      cvc: '123',
    });
  }
  // The payments console's token (#32), with every feature; null from a service that does not take features yet.
  const features = { refunds: true, voids: true, captures: true, export: true, receipts: true };
  const consoleSession = await call(baseUrl, 'POST', '/widgets/sessions', {
    merchant_key: merchant.merchant_key,
    features,
  }).catch(() => null);
  const payouts = await payoutsSession(baseUrl, application).catch(() => null);
  const flaky = await startFlakyProxy(baseUrl);
  return {
    env: {
      baseUrl,
      flakyBaseUrl: flaky.baseUrl,
      publicKey: merchant.public_key,
      sessionToken: session.session_token,
      consoleSessionToken: consoleSession?.session_token ?? null,
      payoutsSessionToken: payouts?.session_token ?? null,
    },
    stop: () => {
      flaky.stop();
      child.kill('SIGTERM');
    },
  };
}
