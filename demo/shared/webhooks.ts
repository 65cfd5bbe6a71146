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
  const source = new EventSource('/demo-api/webhooks/stream');
  // The stream sends what it kept, then `live`, then new deliveries. After a reconnect it sends what it kept again:
  // the ones seen are skipped, and the others arrived while the page was connected or reconnecting, so they are live.
  let live = false;
  source.addEventListener('live', () => (live = true));
  const seen = new Set<string>();
  source.onmessage = (message) => {
    const delivery: Delivery = JSON.parse(message.data);
    const key = `${delivery.webhookId}|${delivery.receivedAt}`;
    if (seen.has(key)) return;
    seen.add(key);
    onDelivery(delivery, live);
  };
  return () => source.close();
}
