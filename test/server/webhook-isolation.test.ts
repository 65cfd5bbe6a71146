import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../support/service.ts';
import { Receiver } from '../support/receiver.ts';
import { registerWebhookUrl } from '../../server/services/webhooks.ts';

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
    const approval = (merchantId: string) => ({ merchant_id: merchantId, business_name: 'B', email: 'e@example.com', company_id: '' });
    for (let i = 0; i < 40; i++) await service.store.events.add(slowClient.clientId, 'merchant.approval', approval(`m_slow_${i}`), service.clock.now());
    service.dispatcher!.wake();
    // Its deliveries are under way and hanging, at most its share of the dispatcher at once.
    await hanging.waitFor((all) => all.length >= 16);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(hanging.receipts.length, 16, 'one endpoint has at most 16 deliveries in flight');

    const written = Date.now();
    for (let i = 0; i < 10; i++) await service.store.events.add(service.client.clientId, 'merchant.approval', approval(`m_fast_${i}`), service.clock.now());
    service.dispatcher!.wake();
    await healthy.waitFor((all) => all.length >= 10, TIMEOUT_MS);
    const waited = Math.max(...healthy.receipts.map((r) => r.receivedAt)) - written;
    assert.ok(waited < TIMEOUT_MS / 2, `the healthy endpoint got every event within ${waited} ms, while the other hangs for ${TIMEOUT_MS} ms`);
  });
});
