import type { PaykitEvent } from 'paykit/client';

/** A delivery as the demo's back end received it (see demo/backend/webhook-inbox.ts). */
export interface Delivery {
  webhookId: string;
  receivedAt: string;
  verified: boolean;
  event?: PaykitEvent;
  error?: string;
}

/**
 * Calls `onDelivery` for every webhook received so far, then for each new one, live (Server-Sent Events).
 * `live` is false for deliveries that arrived before the page opened.
 */
export function watchWebhooks(onDelivery: (delivery: Delivery, live: boolean) => void): () => void {
  const opened = Date.now();
  const source = new EventSource('/demo-api/webhooks/stream');
  const seen = new Set<string>();
  source.onmessage = (message) => {
    const delivery: Delivery = JSON.parse(message.data);
    // After a reconnect the stream starts again from the oldest kept delivery.
    const key = `${delivery.webhookId}|${delivery.receivedAt}`;
    if (seen.has(key)) return;
    seen.add(key);
    onDelivery(delivery, Date.parse(delivery.receivedAt) >= opened);
  };
  return () => source.close();
}
