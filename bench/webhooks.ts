import { openStore } from '../server/store/open.ts';
import { send } from '../test/support/http.ts';
import { validApplication } from '../test/support/fixtures.ts';
import { Receiver } from '../test/support/receiver.ts';

export interface WebhookFigures {
  deliveriesPerSecond: number;
  medianMs: number;
  p99Ms: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

/**
 * Deliveries a second to a loopback receiver (a backlog written straight into the outbox of the running
 * service's database), and the time from a committed state change (the API's answer) to its delivery.
 */
export async function measureWebhooks(baseUrl: string, dataDir: string, auth: { id: string; secret: string }): Promise<WebhookFigures> {
  const receiver = await new Receiver().start();
  try {
    await send(baseUrl, 'POST', '/api/v1/client/update-webhooks-url', { json: { webhook_url: receiver.url }, auth });

    const backlog = 5000;
    const store = await openStore({ dataDir });
    const started = performance.now();
    await store.transaction(async (tx) => {
      for (let i = 0; i < backlog; i++) {
        await tx.events.add(auth.id, 'merchant.approval', { merchant_id: `m_bench_${i}`, business_name: 'Bench', email: 'b@example.com', company_id: '' }, new Date());
      }
    });
    await store.close();
    await receiver.waitFor((all) => all.length >= backlog, 120_000);
    const deliveriesPerSecond = backlog / ((performance.now() - started) / 1000);

    const latencies: number[] = [];
    for (let i = 0; i < 200; i++) {
      const answer = await send(baseUrl, 'POST', '/api/v1/onboarding', { json: validApplication(), auth });
      const committed = Date.now();
      const merchantId = answer.body.data.merchant_id;
      await receiver.waitFor((all) => all.some((r) => r.event.data.merchant_id === merchantId), 10_000);
      const arrival = receiver.receipts.find((r) => r.event.data.merchant_id === merchantId)!.receivedAt;
      latencies.push(arrival - committed);
    }
    latencies.sort((a, b) => a - b);
    return { deliveriesPerSecond, medianMs: percentile(latencies, 50), p99Ms: percentile(latencies, 99) };
  } finally {
    await receiver.stop();
  }
}
