/** The Paykit events' one part that runs: `emit`. Their names and details are types, in event-types.ts. */
import type { PaykitEventMap } from './event-types.ts';

export type * from './event-types.ts';

type DetailOf<K extends keyof PaykitEventMap> = PaykitEventMap[K] extends CustomEvent<infer D> ? D : never;

/** Dispatches one of the Paykit events from `host`. */
export function emit<K extends keyof PaykitEventMap>(host: HTMLElement, type: K, detail: DetailOf<K>): boolean {
  return host.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
}
