import type { Store } from '../store/store.ts';
import type { Change } from '../store/changes.ts';
import type { AnswerSeal } from '../store/idempotency-keys.ts';
import { Refusal } from '../domain/refusals.ts';

/** Lost races (a change's guard no longer held when it was written) before the change is read and written in a unit. */
export const UNLOCKED_ATTEMPTS = 3;

/** A change and what its caller answers once it is written. */
export interface Decided<T> {
  change: Change;
  result: T;
}

/** A change whose guard no longer held when it was written: nothing was written; read and decide again. */
class GuardLost extends Error {
  constructor() {
    super('a change was decided on a read that no longer holds');
  }
}

/** Writes `change` (with a keyed request's sealed answer): throws its refusal, or GuardLost, when a guard no longer holds. */
export async function apply(store: Store, change: Change, seal?: AnswerSeal): Promise<void> {
  if (await store.write(change, seal)) return;
  const { refusal } = change;
  throw refusal ? new Refusal(refusal.reason, refusal.message) : new GuardLost();
}

/**
 * Runs `attempt` (read, decide in `server/domain/`, write the change) until its change is written: first on plain
 * reads, which hold nothing across round trips; after `UNLOCKED_ATTEMPTS` lost races, once more in a unit of work,
 * whose reads hold what they read (`findForChange`), where nobody can change it between the read and the write. A
 * busy sale thus costs a refund a wait, never a refusal: contention is not the caller's doing.
 */
export async function readDecideWrite<T>(store: Store, attempt: (store: Store) => Promise<T>): Promise<T> {
  for (let lost = 0; lost < UNLOCKED_ATTEMPTS; lost++) {
    try {
      return await attempt(store);
    } catch (error) {
      if (!(error instanceof GuardLost)) throw error;
    }
  }
  return store.transaction(attempt);
}
