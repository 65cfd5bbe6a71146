import type { Store } from '../store/store.ts';
import type { Client } from '../store/clients.ts';
import type { MerchantSummary } from '../store/merchants.ts';
import type { EventDelivery } from '../store/events.ts';
import type { SentMessage } from '../store/messages.ts';
import type { WebhookAttempt } from '../store/webhook-endpoints.ts';
import { matchesDigest } from '../platform/secrets.ts';

/** How many of the newest events and sandbox messages the dashboard shows. */
const DASHBOARD_EVENTS = 20;
const DASHBOARD_MESSAGES = 50;
const NO_CLIENT = '0'.repeat(64);

interface DashboardEvent extends EventDelivery {
  attempts_log: WebhookAttempt[];
}

/** What one client sees in the sandbox portal: its own merchants, events with their deliveries, and messages. */
export interface SandboxDashboard {
  client: Pick<Client, 'id' | 'name' | 'public_key'>;
  merchants: MerchantSummary[];
  events: DashboardEvent[];
  eventTotal: number;
  webhookUrl: string | null;
  messages: SentMessage[];
  limits: { events: number; messages: number };
}

/** The client whose id and secret key these are, or undefined; the digest is compared even for an unknown id. */
export async function clientWithSecret(store: Store, id: string, secret: string): Promise<Client | undefined> {
  const client = await store.clients.findById(id);
  return matchesDigest(secret, client?.secret_hash ?? NO_CLIENT) && client ? client : undefined;
}

export async function sandboxDashboard(store: Store, client: Client): Promise<SandboxDashboard> {
  const [merchants, listed, endpoint, messages] = await Promise.all([
    store.merchants.listForClient(client.id),
    store.events.deliveries(client.id, undefined, DASHBOARD_EVENTS, { offset: 0 }),
    store.webhookEndpoints.find(client.id),
    store.messages.newestFirst(client.id, DASHBOARD_MESSAGES),
  ]);
  const events = await Promise.all(
    listed.items.map(async (event) => ({ ...event, attempts_log: await store.webhookEndpoints.attemptsFor(event.id) })),
  );
  return {
    client: { id: client.id, name: client.name, public_key: client.public_key },
    merchants,
    events,
    eventTotal: listed.total,
    webhookUrl: endpoint?.url ?? null,
    messages,
    limits: { events: DASHBOARD_EVENTS, messages: DASHBOARD_MESSAGES },
  };
}

/** Sends one of the client's events again from the start of the retry schedule; false when it is not the client's. */
export function resendEvent(store: Store, client: Client, eventId: string): Promise<boolean> {
  return store.events.resend(client.id, eventId);
}
