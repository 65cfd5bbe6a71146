import type { Store } from '../store/store.ts';

/** Lost races (the row changed between the read and the guarded write) before a change waits its turn under a lock. */
export const UNLOCKED_ATTEMPTS = 3;

/**
 * Runs `attempt` (read, decide in `server/domain/`, guarded write: `store.guardedChange`) until its write lands:
 * first on unlocked reads, which hold nothing across round trips; after `UNLOCKED_ATTEMPTS` lost races, once more
 * with the row locked for a unit of work, where nobody can change it between the read and the write. A busy sale
 * thus costs a refund a wait, never a refusal. `attempt` gives undefined when its guarded write found the row changed.
 * On SQLite it reads in the unit at once.
 */
export async function readDecideWrite<T>(store: Store, attempt: (store: Store, read: 'unlocked' | 'locked') => Promise<T | undefined>): Promise<T> {
  // SQLite has one writer: read inside the unit, where no race can be lost (and the read sees the group's earlier units).
  const unlocked = store.dialect === 'postgres' ? UNLOCKED_ATTEMPTS : 0;
  for (let lost = 0; lost < unlocked; lost++) {
    const done = await attempt(store, 'unlocked');
    if (done !== undefined) return done;
  }
  const done = await store.transaction((tx) => attempt(tx, 'locked'));
  if (done === undefined) throw new Error('a guarded write found its row changed while it held the row locked');
  return done;
}
