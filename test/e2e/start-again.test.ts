import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { PaykitClient } from '../../client/index.ts';
import { startDemo } from './demo-servers.ts';

/** What a newcomer keeps from one start to the next: the printed credentials and the demo merchant. */
async function identity(demo: { output(): string; demoUrl: string }) {
  const { data } = await (await fetch(`${demo.demoUrl}/demo-api/config`)).json();
  return {
    clientId: demo.output().match(/Sandbox client\s+id (\S+)/)?.[1],
    secret: demo.output().match(/secret (sk_\S+)/)?.[1],
    merchantId: data.merchantId,
    publicKey: data.publicKey,
  };
}

test(
  'npm start again on the same data reuses the sandbox client and the demo merchant, and keeps the sales',
  { timeout: 120_000 },
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'paykit-restart-'));
    try {
      const first = await startDemo({ dataDir, keepData: true });
      const before = await identity(first);
      // A sale made with the printed credentials, as a developer trying the API would.
      const paykit = new PaykitClient({
        clientId: before.clientId!,
        secretKey: before.secret!,
        baseUrl: first.serviceUrl,
      });
      const { merchant_key } = JSON.parse(readFileSync(join(dataDir, 'demo-merchant.json'), 'utf8'));
      const { pay_link } = await paykit.payments.request({ merchant_key, amount: '7.00', order_id: 'before-restart' });
      const sale = await paykit.sandbox.pay({
        pay_link,
        method: 'card',
        card_number: '4242424242424242',
        exp_month: 12,
        exp_year: 2040,
        cvc: '123',
      });
      await first.stop();

      const second = await startDemo({ dataDir, keepData: true });
      try {
        const after = await identity(second);
        assert.ok(before.clientId && before.secret, 'the credentials are printed');
        assert.deepEqual(after, before, 'the same client, secret, merchant and public key');
        const again = new PaykitClient({
          clientId: after.clientId!,
          secretKey: after.secret!,
          baseUrl: second.serviceUrl,
        });
        const listed: string[] = [];
        for await (const item of again.transactions.list(merchant_key)) listed.push(item.transaction_id);
        assert.ok(listed.includes(sale.transaction_id), 'the sale made before the restart is listed');
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
);

/** The dependencies a demo page's entry imports, fetched as the browser would: their statuses, by URL. */
async function dependencyStatuses(demoUrl: string, entry: string): Promise<Map<string, number>> {
  const code = await (await fetch(`${demoUrl}${entry}`)).text();
  const urls = [...code.matchAll(/from\s+"([^"]*\/deps\/[^"]+)"/g)].map((match) => match[1]!);
  const statuses = new Map<string, number>();
  for (const url of urls) statuses.set(url, (await fetch(new URL(url, `${demoUrl}/`))).status);
  return statuses;
}

test(
  'two npm starts side by side each keep their own Vite dependencies, and both serve the React page',
  { timeout: 120_000 },
  async () => {
    // Vite takes no lock on its dependency cache: two demos sharing one rebuilt it under each other, and a page waited
    // for dependencies that never came (an end-to-end journey did, beside this file's restarts).
    const demos = await Promise.all([startDemo(), startDemo()]);
    try {
      for (const demo of demos) {
        const statuses = await dependencyStatuses(demo.demoUrl, '/react/main.tsx');
        assert.ok(statuses.size > 0, 'the React page imports pre-bundled dependencies');
        for (const [url, status] of statuses) assert.equal(status, 200, `${url} is served`);
        assert.ok(
          existsSync(join(demo.dataDir, 'vite-cache', 'deps', '_metadata.json')),
          'the dependencies are kept in the data folder',
        );
      }
    } finally {
      await Promise.all(demos.map((demo) => demo.stop()));
    }
  },
);
