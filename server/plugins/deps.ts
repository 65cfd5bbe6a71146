import type { Clock } from '../platform/clock.ts';
import type { Config } from '../platform/config.ts';
import type { Store } from '../store/store.ts';
import type { AfterAnswer } from '../services/after-answer.ts';

/** What every route plugin is given. */
export interface Deps {
  store: Store;
  clock: Clock;
  config: Config;
  /** The webhook dispatcher, told when something was written to the outbox; absent when deliveries are off. */
  dispatcher?: { wake(): void } | undefined;
  /** Work started by a call and finished after its answer; awaited before the service closes (made by buildApp). */
  afterAnswer: AfterAnswer;
}
