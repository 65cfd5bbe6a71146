import type { IncomingMessage, ServerResponse } from 'node:http';
import { verifyWebhook } from 'paykit/client';
import type { Delivery } from '../shared/webhooks.ts';

/** One delivery as the demo received it: verified and parsed, or refused with the reason. */
export type ReceivedWebhook = Delivery;

const KEPT = 200;

/**
 * The demo's webhook endpoint: verifies each delivery's Standard Webhooks signature with `paykit/client`,
 * keeps the last deliveries in memory and pushes them to open pages over Server-Sent Events.
 */
export class WebhookInbox {
  private readonly received: ReceivedWebhook[] = [];
  private readonly listeners = new Set<(delivery: ReceivedWebhook) => void>();
  private signingSecret = '';

  useSecret(secret: string): void {
    this.signingSecret = secret;
  }

  /** Verifies a delivery; the answer's status tells the service whether to retry (2xx: delivered). */
  receive(rawBody: Buffer, headers: IncomingMessage['headers']): { status: number; delivery: ReceivedWebhook } {
    const webhookId = String(headers['webhook-id'] ?? '');
    const receivedAt = new Date().toISOString();
    let delivery: ReceivedWebhook;
    try {
      const event = verifyWebhook(rawBody, headers, this.signingSecret);
      // At-least-once delivery: a retried event keeps its id, so it is shown once.
      const seen = this.received.find((earlier) => earlier.verified && earlier.webhookId === webhookId);
      if (seen) return { status: 200, delivery: seen };
      delivery = { webhookId, receivedAt, verified: true, event };
    } catch (error) {
      delivery = { webhookId, receivedAt, verified: false, error: (error as Error).message };
    }
    this.received.unshift(delivery);
    this.received.length = Math.min(this.received.length, KEPT);
    for (const listener of this.listeners) listener(delivery);
    return { status: delivery.verified ? 204 : 400, delivery };
  }

  onDelivery(listener: (delivery: ReceivedWebhook) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  list(): ReceivedWebhook[] {
    return [...this.received];
  }

  /**
   * `text/event-stream`: what arrived so far (oldest first), a `live` event, then each new delivery as it comes.
   */
  stream(request: IncomingMessage, response: ServerResponse): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    const send = (delivery: ReceivedWebhook) => response.write(`data: ${JSON.stringify(delivery)}\n\n`);
    response.write('retry: 2000\n\n');
    for (const delivery of [...this.received].reverse()) send(delivery);
    response.write('event: live\ndata: \n\n');
    const stop = this.onDelivery(send);
    request.once('close', stop);
  }
}
