import { openStore } from '../server/store/open.ts';
import { createClient } from '../server/services/clients.ts';
import { registerWebhookUrl } from '../server/services/webhooks.ts';
import type { Store } from '../server/store/store.ts';
import { send } from '../test/support/http.ts';
import { validApplication } from '../test/support/fixtures.ts';
import { Receiver } from '../test/support/receiver.ts';

export interface WebhookFigures {
  deliveriesPerSecond: number;
  medianMs: number;
  p99Ms: number;
  /** The same latency while another client's endpoint hangs on every delivery until the timeout. */
  besideHangingMedianMs: number;
  besideHangingP99Ms: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

/** Time from a committed state change (the API's answer) to its delivery, over `count` onboardings in a row. */
async function latencies(
  baseUrl: string,
  auth: { id: string; secret: string },
  receiver: Receiver,
  count: number,
): Promise<number[]> {
  const measured: number[] = [];
  for (let i = 0; i < count; i++) {
    const answer = await send(baseUrl, 'POST', '/api/v1/onboarding', { json: validApplication(), auth });
    const committed = Date.now();
    const merchantId = answer.body.data.merchant_id;
    await receiver.waitFor((all) => all.some((r) => r.event.data.merchant_id === merchantId), 20_000);
    measured.push(receiver.receipts.find((r) => r.event.data.merchant_id === merchantId)!.receivedAt - committed);
  }
  return measured.sort((a, b) => a - b);
}

/** Another client whose endpoint never answers in time, with a backlog of events that keeps it busy throughout. */
async function hangingNeighbour(store: Store, receiver: Receiver): Promise<void> {
  const { clientId } = await createClient(store, 'Hanging bench partner', new Date());
  await registerWebhookUrl(store, clientId, receiver.url, new Date(), true);
  await store.transaction(async (tx) => {
    for (let i = 0; i < 2000; i++) {
      await tx.events.add(
        clientId,
        'merchant.approval',
        { merchant_id: `m_hanging_${i}`, business_name: 'Hanging', email: 'h@example.com', company_id: '' },
        new Date(),
      );
    }
  });
}

/**
 * Deliveries a second to a loopback receiver (a backlog written straight into the outbox of the running
 * service's database), the time from a committed state change (the API's answer) to its delivery, and that time
 * again while another client's endpoint hangs. A client of its own: the endpoints measured before wrote tens of
 * thousands of events (every refund is one) that would otherwise be delivered first.
 */
export async function measureWebhooks(baseUrl: string, dataDir: string): Promise<WebhookFigures> {
  const receiver = await new Receiver().start();
  try {
    const store = await openStore({ dataDir });
    const { clientId, secretKey } = await createClient(store, 'Webhook bench partner', new Date());
    const auth = { id: clientId, secret: secretKey };
    await send(baseUrl, 'POST', '/api/v1/client/update-webhooks-url', { json: { webhook_url: receiver.url }, auth });

    const backlog = 5000;
    const started = performance.now();
    await store.transaction(async (tx) => {
      for (let i = 0; i < backlog; i++) {
        await tx.events.add(
          clientId,
          'merchant.approval',
          { merchant_id: `m_bench_${i}`, business_name: 'Bench', email: 'b@example.com', company_id: '' },
          new Date(),
        );
      }
    });
    await store.close();
    await receiver.waitFor((all) => all.length >= backlog, 120_000);
    const deliveriesPerSecond = backlog / ((performance.now() - started) / 1000);

    const alone = await latencies(baseUrl, auth, receiver, 200);

    const hanging = await new Receiver().start();
    hanging.fallback = { status: 200, delayMs: 120_000 };
    try {
      const neighbourStore = await openStore({ dataDir });
      await hangingNeighbour(neighbourStore, hanging);
      await neighbourStore.close();
      await hanging.waitFor((all) => all.length > 0, 10_000);
      const beside = await latencies(baseUrl, auth, receiver, 200);
      return {
        deliveriesPerSecond,
        medianMs: percentile(alone, 50),
        p99Ms: percentile(alone, 99),
        besideHangingMedianMs: percentile(beside, 50),
        besideHangingP99Ms: percentile(beside, 99),
      };
    } finally {
      await hanging.stop();
    }
  } finally {
    await receiver.stop();
  }
}
