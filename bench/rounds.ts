import type { LoadResult } from './load.ts';
import { median } from './median.ts';

/** An endpoint's figures over its rounds. */
export interface Combined extends LoadResult {
  /** The lowest and highest throughput of its rounds (`requestsPerSecond` is their median). */
  requestsPerSecondRange: [number, number];
}

/**
 * Takes the rounds of one endpoint together: the median round's throughput, so that the one round a burst of other
 * work on the machine fell into does not decide the figure, and the worst round's p99.
 */
export function combineRounds(rounds: readonly LoadResult[]): Combined {
  if (rounds.length === 0) throw new Error('no rounds to combine');
  const throughputs = rounds.map((round) => round.requestsPerSecond);
  return {
    requestsPerSecond: median(throughputs),
    requestsPerSecondRange: [Math.min(...throughputs), Math.max(...throughputs)],
    p99Ms: Math.max(...rounds.map((round) => round.p99Ms)),
    non2xx: rounds.reduce((sum, round) => sum + round.non2xx, 0),
    errors: rounds.reduce((sum, round) => sum + round.errors, 0),
  };
}
