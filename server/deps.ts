import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Store } from './store/store.ts';

/** What every route plugin is given. */
export interface Deps {
  store: Store;
  clock: Clock;
  config: Config;
  /** The webhook dispatcher, told when something was written to the outbox; absent when deliveries are off. */
  dispatcher?: { wake(): void } | undefined;
}
