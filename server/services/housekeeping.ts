import type { Clock } from '../platform/clock.ts';
import type { Store } from '../store/store.ts';
import { SECRET_RETENTION_MS } from '../domain/event-secrets.ts';
import { isoInstant } from '../domain/instants.ts';
import { ONBOARDING_DRAFT_KEPT_MS } from '../domain/session-lifetimes.ts';
import { logFailedTry, type FailureLog } from '../store/unavailable.ts';

export interface HousekeepingOptions {
  store: Store;
  clock: Clock;
  log?: FailureLog;
  everyMs?: number;
}

/**
 * What nobody asks for but must happen: idempotency keys older than a day are deleted with their answers, events
 * that waited four days still holding a secret (no endpoint took them) have it masked, and the answers saved on
 * onboarding links that ended unused a week ago (no refreshed link carried them on) are forgotten.
 */
export class Housekeeping {
  private timer: NodeJS.Timeout | undefined;

  private readonly options: HousekeepingOptions;

  constructor(options: HousekeepingOptions) {
    this.options = options;
  }

  start(): void {
    const run = () =>
      void this.runOnce().catch((error: unknown) =>
        logFailedTry(this.options.log, error, 'housekeeping failed; trying again later'),
      );
    run();
    this.timer = setInterval(run, this.options.everyMs ?? 10 * 60 * 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** One pass; returns what it did. */
  async runOnce(): Promise<{ purgedKeys: number; redactedEvents: number; droppedDrafts: number }> {
    const { store, clock } = this.options;
    const now = clock.now();
    const purgedKeys = await store.idempotencyKeys.purgeExpired(now);
    const cutoff = isoInstant(now, -SECRET_RETENTION_MS);
    let redactedEvents = 0;
    for (;;) {
      const ids = await store.events.holdingSecretsSince(cutoff, 500);
      for (const id of ids) await store.events.redactSecrets(id);
      redactedEvents += ids.length;
      if (ids.length < 500) break;
    }
    const droppedDrafts = await store.onboardingTokens.dropExpiredDrafts(isoInstant(now, -ONBOARDING_DRAFT_KEPT_MS));
    return { purgedKeys, redactedEvents, droppedDrafts };
  }
}
