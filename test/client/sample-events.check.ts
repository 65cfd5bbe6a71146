/**
 * Type-level check, run by `npm run typecheck`: the sandbox's test events (server/services/sample-events.ts) carry,
 * for every event type, the fields paykit/client declares for it (client/events.ts), each of its type: all it
 * requires and none it does not know.
 */
import type { SAMPLES } from '../../server/services/sample-events.ts';
import type { PaykitEventMap } from '../../client/events.ts';

type Sampled = { [T in keyof typeof SAMPLES]: ReturnType<(typeof SAMPLES)[T]> };
type RequiredKeys<M> = { [K in keyof M]-?: object extends Pick<M, K> ? never : K }[keyof M];
/** `S` is a valid `M` (every field's value of its type), with every field `M` requires and none it does not know. */
type FitsOne<S, M> = [S] extends [M]
  ? [RequiredKeys<M>] extends [keyof S]
    ? [keyof S] extends [keyof M]
      ? true
      : false
    : false
  : false;
/** For a union (`ach.update`: approved or declined), fitting one of its members is enough. */
type Fits<S, M> = true extends (M extends unknown ? FitsOne<S, M> : never) ? true : false;

type Differing = {
  [T in keyof PaykitEventMap]: T extends keyof Sampled
    ? Fits<Sampled[T], PaykitEventMap[T]> extends true
      ? never
      : T
    : T;
}[keyof PaykitEventMap];
type Unknown = Exclude<keyof Sampled, keyof PaykitEventMap>;

export const noSampleDiffers: [Differing] extends [never] ? true : { differing: Differing } = true;
export const noUnknownSample: [Unknown] extends [never] ? true : { unknown: Unknown } = true;
