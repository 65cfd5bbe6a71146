import type { Clock } from '../platform/clock.ts';
import type { Store } from '../store/store.ts';
import { runPayouts } from './payouts.ts';
import { decideOpenDisputes } from './disputes.ts';
import { logFailedTry, type FailureLog } from '../store/unavailable.ts';

/** How often a process runs the payout schedule: a payout is made within a minute of its period starting. */
const EVERY_MS = 60_000;

/**
 * Runs the payout schedule (and decides the disputes due, docs/disputes.md) in the background, at start and then every minute, in every process: runs may overlap
 * across processes, the unique (merchant, period) key lets one payout through (services/payouts.ts).
 */
export class PayoutRunner {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private readonly store: Store;
  private readonly clock: Clock;
  private readonly log: FailureLog | undefined;

  constructor({ store, clock, log }: { store: Store; clock: Clock; log?: FailureLog }) {
    this.store = store;
    this.clock = clock;
    this.log = log;
  }

  start(): void {
    const run = () => {
      // One run at a time in a process: a slow one (a large sweep) is not joined by the next.
      // Disputes first, as a move of the sandbox clock decides them: one past its due date is lost by the clock alone.
      this.running ??= decideOpenDisputes(this.store, this.clock.now())
        .then(() => runPayouts(this.store, this.clock.now()))
        .catch((error: unknown) => logFailedTry(this.log, error, 'the payout run failed; the next one tries again'))
        .finally(() => (this.running = undefined));
    };
    run();
    this.timer = setInterval(run, EVERY_MS);
    this.timer.unref();
  }

  /** Stops the timer and waits for a run under way. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
