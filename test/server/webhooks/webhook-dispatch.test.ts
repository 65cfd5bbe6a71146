import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { Receiver } from '../../support/receiver.ts';
import { waitUntil } from '../../support/wait.ts';
import { registerWebhookUrl } from '../../../server/services/webhooks.ts';
import { Dispatcher } from '../../../server/webhooks/dispatcher.ts';
import { createDeliverer } from '../../../server/webhooks/deliver.ts';
import type { Store } from '../../../server/store/store.ts';

const TIMEOUT_MS = 4000;

describe('one client’s hanging endpoint holds back only its own events', () => {
  let service: TestService;
  let hanging: Receiver;
  let healthy: Receiver;
  before(async () => {
    service = await startService({ webhooks: { timeoutMs: TIMEOUT_MS, scheduleSeconds: [60] } });
    hanging = await new Receiver().start();
    hanging.fallback = { status: 200, delayMs: 30_000 };
    healthy = await new Receiver().start();
  });
  after(async () => {
    // The hanging endpoint goes first: its deliveries then end at once, and the dispatcher stops without waiting.
    await hanging.stop();
    await service.close();
    await healthy.stop();
  });

  test('events written while another endpoint hangs arrive at once, long before its deliveries time out', async () => {
    const slowClient = await service.newClient('Hanging partner');
    await registerWebhookUrl(service.store, slowClient.clientId, hanging.url, service.clock.now(), true);
    await registerWebhookUrl(service.store, service.client.clientId, healthy.url, service.clock.now(), true);
    const approval = (merchantId: string) => ({
      merchant_id: merchantId,
      business_name: 'B',
      email: 'e@example.com',
      company_id: '',
    });
    // All 80 become due at once: a poll in the middle of one-by-one writes would claim a first batch of fewer than 32.
    await service.store.transaction(async (tx) => {
      for (let i = 0; i < 80; i++)
        await tx.events.add(slowClient.clientId, 'merchant.approval', approval(`m_slow_${i}`), service.clock.now());
    });
    service.dispatcher!.wake();
    // Its first batch is under way and hanging; the next waits for it.
    await hanging.waitFor((all) => all.length >= 32);

    const written = Date.now();
    for (let i = 0; i < 10; i++)
      await service.store.events.add(
        service.client.clientId,
        'merchant.approval',
        approval(`m_fast_${i}`),
        service.clock.now(),
      );
    service.dispatcher!.wake();
    await healthy.waitFor((all) => all.length >= 10, TIMEOUT_MS);
    const waited = Math.max(...healthy.receipts.map((r) => r.receivedAt)) - written;
    // Checked once the dispatcher has served the other endpoint, rounds later, while the first batch still hangs.
    assert.equal(hanging.receipts.length, 32, 'one endpoint is sent one batch of 32 at a time');
    assert.ok(
      waited < TIMEOUT_MS / 2,
      `the healthy endpoint got every event within ${waited} ms, while the other hangs for ${TIMEOUT_MS} ms`,
    );
  });
});

describe('the dispatcher reads times and reports failures as a receiver and an operator expect', () => {
  let service: TestService;
  let receiver: Receiver;
  before(async () => {
    service = await startService({ webhooks: { timeoutMs: 2000, scheduleSeconds: [1, 1] } });
    receiver = await new Receiver().start();
    await registerWebhookUrl(service.store, service.client.clientId, receiver.url, service.clock.now(), true);
  });
  after(async () => {
    await service.close();
    await receiver.stop();
  });

  test('a Retry-After date is the receiver’s wall-clock time, even when the sandbox clock has moved', async () => {
    service.clock.advance(3 * 24 * 60 * 60 * 1000);
    receiver.replies = [{ status: 503, headers: { 'retry-after': new Date(Date.now() + 120_000).toUTCString() } }];
    const id = await service.store.events.add(
      service.client.clientId,
      'merchant.approval',
      { merchant_id: 'm_date', business_name: 'B', email: 'e@example.com', company_id: '' },
      service.clock.now(),
    );
    service.dispatcher!.wake();
    const event = await waitUntil(
      async () => {
        const read = await service.store.events.findForClient(service.client.clientId, id);
        return read!.attempts > 0 && read;
      },
      { what: 'a first attempt' },
    );
    const wait = Date.parse(event!.next_attempt_at) - service.clock.now().getTime();
    assert.ok(
      wait > 100_000 && wait <= 121_000,
      `the next attempt waits the two minutes the date says (${wait} ms), not three days less`,
    );
  });

  test('a round that fails is logged, and the dispatcher keeps going', async () => {
    const logged: unknown[] = [];
    const broken = Object.create(service.store, {
      events: {
        value: {
          clientsWithDueEvents: async () => {
            throw new Error('database unavailable');
          },
        },
      },
    }) as Store;
    const deliverer = createDeliverer({ timeoutMs: 1000, allowPrivate: true });
    const dispatcher = new Dispatcher({
      store: broken,
      clock: service.clock,
      deliverer,
      scheduleSeconds: [1],
      timeoutMs: 1000,
      pollMs: 10,
      log: { error: (details: unknown) => logged.push(details), warn: () => {} },
    });
    dispatcher.start();
    await waitUntil(() => logged.length >= 2, { what: 'two failed rounds' });
    await dispatcher.stop();
    deliverer.close();
    assert.ok(logged.length >= 2, `every failed round is logged (${logged.length})`);
    assert.match(String((logged[0] as { err: Error }).err.message), /database unavailable/);
  });
});
