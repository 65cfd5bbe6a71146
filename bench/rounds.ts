import type { LoadResult } from './load.ts';
import { median } from './median.ts';

/** An endpoint's figures over its rounds. */
export interface Combined extends LoadResult {
  /** The lowest and highest throughput of its rounds (`requestsPerSecond` is their median). */
  requestsPerSecondRange: [number, number];
}

/**
 * Takes the rounds of one endpoint together: the median round's throughput and CPU, so that the one round a burst of
 * other work on the machine fell into does not decide the figure, and the worst round's p99, as the aims bound it.
 */
export function combineRounds(rounds: readonly LoadResult[]): Combined {
  if (rounds.length === 0) throw new Error('no rounds to combine');
  const throughputs = rounds.map((round) => round.requestsPerSecond);
  const medianOf = (figure: (round: LoadResult) => number | undefined) => {
    const figures = rounds.map(figure).filter((value): value is number => value !== undefined);
    return figures.length > 0 ? median(figures) : undefined;
  };
  return {
    requestsPerSecond: median(throughputs),
    requestsPerSecondRange: [Math.min(...throughputs), Math.max(...throughputs)],
    p99Ms: Math.max(...rounds.map((round) => round.p99Ms)),
    non2xx: rounds.reduce((sum, round) => sum + round.non2xx, 0),
    errors: rounds.reduce((sum, round) => sum + round.errors, 0),
    cpuUsPerRequest: medianOf((round) => round.cpuUsPerRequest),
    eventLoopBusy: medianOf((round) => round.eventLoopBusy),
    loadGeneratorBusy: medianOf((round) => round.loadGeneratorBusy),
  };
}

/** An endpoint's throughput as a ratio to the bare route's, round by round. */
export interface RatioToBare {
  /** The median round's. */
  median: number;
  /** The lowest and highest round's. */
  range: [number, number];
}

/**
 * Each round of an endpoint against the bare route's runs just before and just after it (their mean), the median of
 * those. The machine's speed drifts over tens of seconds, and moves the bare route and the service together: a round
 * set against the run's median bare route would follow that drift, set against its own neighbours it does not.
 * `bareAround` holds one run more than `rounds`: the one before the first round, then the one after each.
 */
export function ratioToNeighbours(rounds: readonly number[], bareAround: readonly number[]): RatioToBare {
  if (rounds.length === 0) throw new Error('no rounds to compare');
  if (bareAround.length !== rounds.length + 1) throw new Error(`${rounds.length} rounds need ${rounds.length + 1} runs of the bare route around them, not ${bareAround.length}`);
  const ratios = rounds.map((requestsPerSecond, i) => requestsPerSecond / ((bareAround[i]! + bareAround[i + 1]!) / 2));
  return { median: median(ratios), range: [Math.min(...ratios), Math.max(...ratios)] };
}
