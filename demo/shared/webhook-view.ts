import { h, when } from './dom.ts';
import type { Delivery } from './webhooks.ts';

/** One received webhook: its type, whether its signature verified, and its data on request. */
export function renderWebhook(delivery: Delivery): HTMLLIElement {
  const badge = delivery.verified
    ? h('span', { class: 'badge ok' }, '✓ signature verified')
    : h('span', { class: 'badge error' }, '✗ refused');
  return h(
    'li',
    {},
    h('p', {}, h('strong', {}, delivery.event?.event_type ?? 'unverified delivery'), ' ', badge),
    h('p', { class: 'hint' }, `${when(delivery.receivedAt)} · ${delivery.webhookId}`),
    delivery.verified
      ? h('details', {}, h('summary', {}, 'Data'), h('pre', {}, JSON.stringify(delivery.event?.data, null, 2)))
      : h('p', { class: 'error' }, delivery.error ?? ''),
  );
}
