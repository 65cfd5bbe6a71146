import type { Store } from '../store/store.ts';
import type { ClaimedEvent } from '../store/events.ts';
import type { WebhookEndpoint } from '../store/webhook-endpoints.ts';
import type { Clock } from '../platform/clock.ts';
import { signatureHeader } from './signing.ts';
import { parseRetryAfter, planRetry } from './retry-schedule.ts';
import type { Deliverer } from './deliver.ts';

type DeliveryResult = Awaited<ReturnType<Deliverer['post']>>;
type DeliveryOutcome = Parameters<Store['events']['settleAttempt']>[2];
import { isoInstant } from '../domain/instants.ts';
import { isStorageUnavailable } from '../store/unavailable.ts';
import { logFailedTry, type FailureLog } from '../store/unavailable.ts';

export interface DispatcherOptions {
  store: Store;
  clock: Clock;
  deliverer: Deliverer;
  scheduleSeconds: number[];
  /** How long one delivery may take; a claim lasts a few times longer, so a crashed process's events come back. */
  timeoutMs: number;
  /** Events one client's endpoint is sent at once, in one batch. */
  perEndpoint?: number;
  /** Clients' endpoints served at once, each in its own lane. */
  maxEndpoints?: number;
  /** How often to look for due events (retries, other processes' events) when nothing woke the dispatcher. */
  pollMs?: number;
  log?: FailureLog;
  random?: () => number;
}

const WOKEN_PAUSE_MS = 10;

/** Secrets a delivery is signed with: the current one and, during a rotation's overlap, the previous one. */
function signingSecrets(endpoint: WebhookEndpoint, now: Date): string[] {
  const overlap =
    endpoint.previous_secret &&
    endpoint.previous_secret_expires_at &&
    endpoint.previous_secret_expires_at > isoInstant(now);
  return overlap ? [endpoint.secret, endpoint.previous_secret!] : [endpoint.secret];
}

/**
 * Delivers the outbox at least once: claims due events, posts each as `{event_type, data}` with Standard
 * Webhooks headers, and records every attempt. Survives restarts because all of its state is in the database.
 *
 * Each client's endpoint has a lane of its own: the lane claims a batch of that client's due events, delivers them
 * side by side, and claims the next batch when they have all ended. An endpoint that hangs until the timeout so
 * holds up its own lane only; the other clients' lanes go on.
 */
export class Dispatcher {
  private running = false;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private laneEnded = false;
  private loop: Promise<void> | undefined;
  private readonly perEndpoint: number;
  private readonly maxEndpoints: number;
  private readonly pollMs: number;
  private readonly lanes = new Map<string, Promise<void>>();

  private readonly options: DispatcherOptions;

  constructor(options: DispatcherOptions) {
    this.options = options;
    this.perEndpoint = options.perEndpoint ?? 32;
    this.maxEndpoints = options.maxEndpoints ?? 16;
    this.pollMs = options.pollMs ?? 1000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops claiming and waits for the batches under way. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    await Promise.all(this.lanes.values());
  }

  /** Something was written to the outbox, or a lane ended: look now rather than at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.woken = false;
      this.laneEnded = false;
      let opened = 0;
      try {
        opened = await this.openLanes();
      } catch (error) {
        logFailedTry(this.options.log, error, 'webhook dispatch failed; trying again');
      }
      if (this.woken) {
        // A lane that ended may leave due events for the next one at once. But under a stream of writes, wakes
        // arrive faster than claims are worth making: after a round that found nothing, pause a moment so the
        // requests that write events keep the database to themselves.
        if (opened === 0 && !this.laneEnded) await new Promise((resolve) => setTimeout(resolve, WOKEN_PAUSE_MS));
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

  private dueWindow() {
    const wallNow = new Date();
    return {
      now: isoInstant(this.options.clock.now()),
      claimAt: isoInstant(wallNow),
      claimedUntil: isoInstant(wallNow, this.options.timeoutMs * 2 + 1000),
    };
  }

  /** Opens a lane for each client with due events and none open yet, as many as there is room for. */
  private async openLanes(): Promise<number> {
    const room = this.maxEndpoints - this.lanes.size;
    if (room <= 0) return 0;
    const clients = (
      await this.options.store.events.clientsWithDueEvents(this.dueWindow(), [...this.lanes.keys()])
    ).slice(0, room);
    for (const clientId of clients) {
      const lane = this.serve(clientId)
        .catch((error: unknown) =>
          this.options.log?.error({ err: error, clientId }, 'webhook delivery could not be recorded'),
        )
        .finally(() => {
          this.lanes.delete(clientId);
          this.laneEnded = true;
          this.wake();
        });
      this.lanes.set(clientId, lane);
    }
    return clients.length;
  }

  /** One client's lane: batch after batch of its due events, until none is due. */
  private async serve(clientId: string): Promise<void> {
    const { store } = this.options;
    while (this.running) {
      const events = await store.events.claimDue(this.dueWindow(), clientId, this.perEndpoint);
      if (events.length === 0) return;
      const [endpoint] = await store.webhookEndpoints.enabled([clientId]);
      if (!endpoint) {
        // Disabled meanwhile (it answered 410): the events wait, unattempted, until the URL is registered again.
        for (const event of events) await store.events.release(event.id, event.claimed_until);
        return;
      }
      await Promise.all(events.map((event) => this.deliver(event, endpoint)));
    }
  }

  private async deliver(event: ClaimedEvent, endpoint: WebhookEndpoint): Promise<void> {
    const { store, clock, deliverer } = this.options;
    const sentAt = clock.now();
    // The receiver checks the timestamp against its own clock: wall time, even when the sandbox moved ours.
    const timestamp = Math.floor(Date.now() / 1000);
    // The body is exactly {event_type, data}, with data as it was stored.
    const body = `{"event_type":${JSON.stringify(event.event_type)},"data":${event.data}}`;
    const result = await deliverer.post(
      endpoint.url,
      {
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(signingSecrets(endpoint, sentAt), event.id, timestamp, body),
      },
      body,
    );

    const after = clock.now();
    const outcome = this.outcomeOf(result, event.attempts + 1, after);
    await this.recordWhileClaimed(event, () =>
      store.transaction(async (tx) => {
        await tx.webhookEndpoints.addAttempt({
          event_id: event.id,
          client_id: event.client_id,
          url: endpoint.url,
          attempted_at: isoInstant(sentAt),
          status_code: result.statusCode ?? null,
          error: result.error ?? null,
          duration_ms: result.durationMs,
        });
        if (result.statusCode === 410)
          await tx.webhookEndpoints.update(endpoint.client_id, {
            disabled_at: isoInstant(after),
            disabled_reason: 'The endpoint answered 410 Gone.',
          });
        await tx.events.settleAttempt(event, event.claimed_until, outcome);
      }),
    );
  }

  /** What an attempt's answer means for its event: delivered, to be tried again (when), or failed for good. */
  private outcomeOf(result: DeliveryResult, attempts: number, after: Date): DeliveryOutcome {
    if (result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode < 300) {
      return { status: 'delivered', attempts, nextAttemptAt: '', deliveredAt: isoInstant(after) };
    }
    // Gone (410): the partner turned the endpoint off. Nothing is sent until the URL is registered again.
    if (result.statusCode === 410) return { status: 'pending', attempts, nextAttemptAt: '', deliveredAt: null };
    // An HTTP-date in Retry-After is the receiver's wall-clock time, not the sandbox's moved clock.
    const retryAfter =
      result.statusCode === 429 || result.statusCode === 503
        ? parseRetryAfter(result.retryAfter, new Date())
        : undefined;
    const plan = planRetry(attempts, this.options.scheduleSeconds, retryAfter, this.options.random ?? Math.random);
    return plan.retry
      ? { status: 'pending', attempts, nextAttemptAt: isoInstant(after, plan.delayMs), deliveredAt: null }
      : { status: 'failed', attempts, nextAttemptAt: '', deliveredAt: null };
  }

  /**
   * Records a delivery's outcome, trying again while the database is away and the claim still holds: an outcome
   * that is not recorded sends the event again once its claim runs out, and the partner would get it twice.
   */
  private async recordWhileClaimed(event: ClaimedEvent, record: () => Promise<void>): Promise<void> {
    for (let waitMs = 100; ; waitMs = Math.min(waitMs * 2, 1000)) {
      try {
        return await record();
      } catch (error) {
        if (!isStorageUnavailable(error) || Date.now() + waitMs >= Date.parse(event.claimed_until)) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}
