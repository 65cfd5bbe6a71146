import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { processPartner, startServiceProcess } from '../support/process.ts';
import { waitUntil } from '../support/wait.ts';
import { send } from '../support/http.ts';
import { TEST_DATABASE_URL, testDatabases } from '../support/databases.ts';
import { storageEnv } from '../support/storage-env.ts';
import { validApplication } from '../support/fixtures.ts';
import { Receiver } from '../support/receiver.ts';
import { openStore } from '../../server/store/open.ts';
import { Clock } from '../../server/platform/clock.ts';
import { createClient } from '../../server/services/clients.ts';
import { registerWebhookUrl } from '../../server/services/webhooks.ts';
import { createDeliverer } from '../../server/webhooks/deliver.ts';
import { Dispatcher } from '../../server/webhooks/dispatcher.ts';

const { env: credentials, auth } = processPartner('webhook');
// Short timeouts, so a killed process's claims lapse within seconds in the test.
const fast = { PAYKIT_WEBHOOK_TIMEOUT_MS: '300', PAYKIT_WEBHOOK_POLL_MS: '50', PAYKIT_WEBHOOK_RETRY_SCHEDULE: '1,1,1' };

for (const database of testDatabases()) {
  describe(`webhook delivery survives SIGKILL (${database})`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    after(async () => {
      for (const cleanup of cleanups) await cleanup();
    });

    test('a process killed mid-delivery delivers, after it starts again, every event not acknowledged', async () => {
      const receiver = await new Receiver().start();
      // The receiver answers only after 2 s: when the process dies, nothing it sent has been acknowledged.
      receiver.fallback = { status: 200, delayMs: 2000 };
      cleanups.push(() => receiver.stop());
      const { env, cleanup } = await storageEnv(database);
      cleanups.push(cleanup);

      const first = await startServiceProcess({ ...env, ...credentials, ...fast });
      await send(first.baseUrl, 'POST', '/api/v1/client/update-webhooks-url', {
        json: { webhook_url: receiver.url },
        auth,
      });
      const onboardings = 15;
      // Each onboarding writes merchant.onboarding and merchant_status.
      const count = onboardings * 2;
      for (let i = 0; i < onboardings; i++) {
        const answer = await send(first.baseUrl, 'POST', '/api/v1/onboarding', { json: validApplication(), auth });
        assert.equal(answer.status, 200);
      }
      await receiver.waitFor((all) => all.length >= 2);
      assert.equal(await first.stop('SIGKILL'), null, 'killed, not closed');
      const killedAt = receiver.receipts.length;
      receiver.fallback = { status: 200 };

      const second = await startServiceProcess({ ...env, ...credentials, ...fast });
      try {
        // Every event, whether it had reached the receiver unacknowledged or not at all, arrives after the restart.
        await receiver.waitFor((all) => new Set(all.slice(killedAt).map((r) => r.id)).size === count, 20_000);
        const log = await send(second.baseUrl, 'GET', '/api/v1/client/webhooks/events', {
          json: { perPage: 100 },
          auth,
        });
        await waitUntil(async () => {
          const pending = await send(second.baseUrl, 'GET', '/api/v1/client/webhooks/events', {
            json: { status: 'pending' },
            auth,
          });
          return pending.body.data.totalCount === 0;
        });
        assert.equal(log.body.data.totalCount, count);
      } finally {
        await second.stop();
      }
    });
  });
}

describe(
  'several dispatchers on one PostgreSQL database',
  { skip: !testDatabases().includes('postgres') && 'PostgreSQL not selected' },
  () => {
    test('claim with SKIP LOCKED: every event is delivered exactly once while two dispatchers run', async (t) => {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const stores = [
        await openStore({ dataDir: 'memory', databaseUrl: TEST_DATABASE_URL, pgSchema: schema }),
        await openStore({ dataDir: 'memory', databaseUrl: TEST_DATABASE_URL, pgSchema: schema }),
      ];
      const receiver = await new Receiver().start();
      const clock = new Clock();
      const { clientId } = await createClient(stores[0]!, 'Scale-out', clock.now());
      await registerWebhookUrl(stores[0]!, clientId, receiver.url, clock.now(), true);
      const count = 300;
      for (let i = 0; i < count; i++)
        await stores[0]!.events.add(
          clientId,
          'merchant.approval',
          { merchant_id: `m_${i}`, business_name: 'B', email: 'e', company_id: '' },
          clock.now(),
        );

      const deliverers = stores.map(() => createDeliverer({ timeoutMs: 2000, allowPrivate: true }));
      const dispatchers = stores.map(
        (store, i) =>
          new Dispatcher({
            store,
            clock,
            deliverer: deliverers[i]!,
            scheduleSeconds: [1],
            timeoutMs: 2000,
            perEndpoint: 20,
            pollMs: 20,
          }),
      );
      t.after(async () => {
        for (const dispatcher of dispatchers) await dispatcher.stop();
        for (const deliverer of deliverers) deliverer.close();
        await receiver.stop();
        for (const store of stores) await store.close();
      });
      for (const dispatcher of dispatchers) dispatcher.start();
      await receiver.waitFor((all) => new Set(all.map((r) => r.id)).size === count, 20_000);
      // Stopped, each dispatcher has finished the batches it had under way: a second delivery would be in by now.
      for (const dispatcher of dispatchers) await dispatcher.stop();
      const perEvent = new Map<string, number>();
      for (const r of receiver.receipts) perEvent.set(r.id, (perEvent.get(r.id) ?? 0) + 1);
      assert.equal(perEvent.size, count);
      assert.deepEqual([...new Set(perEvent.values())], [1], 'no event was delivered twice');
    });
  },
);
