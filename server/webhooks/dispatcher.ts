import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../store/store.ts';
import type { ClaimedEvent } from '../store/events.ts';
import type { WebhookEndpoint } from '../store/webhook-endpoints.ts';
import type { Clock } from '../clock.ts';
import { signatureHeader } from './signing.ts';
import { parseRetryAfter, planRetry } from './retry-schedule.ts';
import type { Deliverer } from './deliver.ts';

export interface DispatcherOptions {
  store: Store;
  clock: Clock;
  deliverer: Deliverer;
  scheduleSeconds: number[];
  /** How long one delivery may take; a claim lasts a few times longer, so a crashed process's events come back. */
  timeoutMs: number;
  /** Deliveries under way at once, in all. */
  maxInFlight?: number;
  /** Deliveries under way at once to one client's endpoint: a slow endpoint holds back only its own events. */
  perEndpoint?: number;
  /** How often to look for due events (retries, other processes' events) when nothing woke the dispatcher. */
  pollMs?: number;
  log?: Pick<FastifyBaseLogger, 'error' | 'warn'>;
  random?: () => number;
}

const WOKEN_PAUSE_MS = 10;

/** Secrets a delivery is signed with: the current one and, during a rotation's overlap, the previous one. */
export function signingSecrets(endpoint: WebhookEndpoint, now: Date): string[] {
  const overlap = endpoint.previous_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > now.toISOString();
  return overlap ? [endpoint.secret, endpoint.previous_secret!] : [endpoint.secret];
}

/**
 * Delivers the outbox at least once: claims due events, posts each as `{event_type, data}` with Standard
 * Webhooks headers, and records every attempt. Survives restarts because all of its state is in the database.
 *
 * Deliveries run side by side and each frees its slot when it ends, so the dispatcher claims again at once instead
 * of waiting for a whole batch; one client's endpoint has at most `perEndpoint` of the slots, so an endpoint that
 * hangs until the timeout delays only its own events.
 */
export class Dispatcher {
  private running = false;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private loop: Promise<void> | undefined;
  private readonly maxInFlight: number;
  private readonly perEndpoint: number;
  private readonly pollMs: number;
  private readonly inFlight = new Map<string, number>();
  private readonly deliveries = new Set<Promise<void>>();

  constructor(private readonly options: DispatcherOptions) {
    this.maxInFlight = options.maxInFlight ?? 64;
    this.perEndpoint = Math.min(options.perEndpoint ?? 16, this.maxInFlight);
    this.pollMs = options.pollMs ?? 1000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops claiming and waits for the deliveries under way. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    await Promise.all(this.deliveries);
  }

  /** Something was written to the outbox, or a delivery ended: look now rather than at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  private get active(): number {
    return this.deliveries.size;
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.woken = false;
      let claimed = 0;
      try {
        claimed = await this.claimAndStart();
      } catch (error) {
        this.options.log?.error({ err: error }, 'webhook dispatch failed; trying again');
      }
      if (claimed > 0 && this.active < this.maxInFlight) continue;
      if (this.woken) {
        // Under a stream of writes, wakes arrive faster than claims are worth making: after a round that found
        // little, pause a moment so the requests that write events keep the database to themselves.
        if (claimed === 0) await new Promise((resolve) => setTimeout(resolve, WOKEN_PAUSE_MS));
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.pollMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }

  /** One round: claim what free slots allow and start delivering. Returns how many events it started. */
  private async claimAndStart(): Promise<number> {
    const free = this.maxInFlight - this.active;
    if (free <= 0) return 0;
    const { store, clock, timeoutMs } = this.options;
    const wallNow = Date.now();
    const claimedUntil = new Date(wallNow + timeoutMs * 2 + 1000).toISOString();
    const saturated = [...this.inFlight].filter(([, count]) => count >= this.perEndpoint).map(([clientId]) => clientId);
    const due = { now: clock.now().toISOString(), claimAt: new Date(wallNow).toISOString(), claimedUntil };
    const events = await store.events.claimDue(due, free, saturated);
    if (events.length === 0) return 0;
    const endpoints = new Map((await store.webhookEndpoints.enabled([...new Set(events.map((e) => e.client_id))])).map((e) => [e.client_id, e]));
    const overflow: ClaimedEvent[] = [];
    let started = 0;
    for (const event of events) {
      const count = this.inFlight.get(event.client_id) ?? 0;
      if (count >= this.perEndpoint) {
        overflow.push(event);
        continue;
      }
      this.inFlight.set(event.client_id, count + 1);
      started++;
      const delivery = this.deliver(event, endpoints.get(event.client_id))
        .catch((error: unknown) => this.options.log?.error({ err: error, eventId: event.id }, 'webhook delivery could not be recorded'))
        .finally(() => {
          this.deliveries.delete(delivery);
          const left = (this.inFlight.get(event.client_id) ?? 1) - 1;
          if (left === 0) this.inFlight.delete(event.client_id);
          else this.inFlight.set(event.client_id, left);
          this.wake();
        });
      this.deliveries.add(delivery);
    }
    // One client's backlog filled the claim past its share: give the rest back, so other clients' events go next.
    for (const event of overflow) await store.events.release(event.id, event.claimed_until);
    return started;
  }

  private async deliver(event: ClaimedEvent, endpoint: WebhookEndpoint | undefined): Promise<void> {
    const { store, clock, deliverer, scheduleSeconds } = this.options;
    if (!endpoint) return store.events.release(event.id, event.claimed_until);
    const sentAt = clock.now();
    // The receiver checks the timestamp against its own clock: wall time, even when the sandbox moved ours.
    const timestamp = Math.floor(Date.now() / 1000);
    // The body is exactly {event_type, data}, with data as it was stored.
    const body = `{"event_type":${JSON.stringify(event.event_type)},"data":${event.data}}`;
    const result = await deliverer.post(endpoint.url, {
      'webhook-id': event.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(signingSecrets(endpoint, sentAt), event.id, timestamp, body),
    }, body);

    const attempts = event.attempts + 1;
    const delivered = result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode < 300;
    await store.webhookEndpoints.addAttempt({
      event_id: event.id, client_id: event.client_id, url: endpoint.url, attempted_at: sentAt.toISOString(),
      status_code: result.statusCode ?? null, error: result.error ?? null, duration_ms: result.durationMs,
    });
    const after = clock.now();
    if (delivered) {
      await store.events.settleAttempt(event, event.claimed_until, { status: 'delivered', attempts, nextAttemptAt: '', deliveredAt: after.toISOString() });
      return;
    }
    if (result.statusCode === 410) {
      // Gone: the partner turned the endpoint off. Nothing is sent until the URL is registered again.
      await store.webhookEndpoints.update(endpoint.client_id, { disabled_at: after.toISOString(), disabled_reason: 'The endpoint answered 410 Gone.' });
      await store.events.settleAttempt(event, event.claimed_until, { status: 'pending', attempts, nextAttemptAt: '', deliveredAt: null });
      return;
    }
    // An HTTP-date in Retry-After is the receiver's wall-clock time, not the sandbox's moved clock.
    const retryAfter = result.statusCode === 429 || result.statusCode === 503 ? parseRetryAfter(result.retryAfter, new Date()) : undefined;
    const plan = planRetry(attempts, scheduleSeconds, retryAfter, this.options.random ?? Math.random);
    await store.events.settleAttempt(event, event.claimed_until, plan.retry
      ? { status: 'pending', attempts, nextAttemptAt: new Date(after.getTime() + plan.delayMs).toISOString(), deliveredAt: null }
      : { status: 'failed', attempts, nextAttemptAt: '', deliveredAt: null });
  }
}
