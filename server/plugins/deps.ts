import type { Clock } from '../platform/clock.ts';
import type { Config } from '../platform/config.ts';
import type { AfterAnswer } from './after-answer.ts';

/**
 * What every route plugin is given. No store: a route reads and writes through its request's unit (`request.unit`,
 * request-unit.ts), so nothing it writes can bypass the unit that carries an Idempotency-Key's answer.
 */
export interface Deps {
  clock: Clock;
  config: Config;
  /** The webhook dispatcher, told when something was written to the outbox; absent when deliveries are off. */
  dispatcher?: { wake(): void } | undefined;
  /** Work started by a call and finished after its answer; awaited before the service closes (made by buildApp). */
  afterAnswer: AfterAnswer;
}
