import { test } from 'node:test';
import assert from 'node:assert/strict';
import { combineRounds, ratioToNeighbours } from '../../bench/rounds.ts';

const round = (requestsPerSecond: number, p99Ms: number, cpuUsPerRequest?: number, eventLoopBusy?: number, loadGeneratorBusy?: number) =>
  ({ requestsPerSecond, p99Ms, non2xx: 0, errors: 0, cpuUsPerRequest, eventLoopBusy, loadGeneratorBusy });

test("an endpoint's figure is its median round: one round that a burst of other work fell into does not move it", () => {
  const combined = combineRounds([round(9000, 12, 110, 0.95, 0.5), round(4000, 40, 190, 0.6, 0.2), round(9400, 10, 105, 0.97, 0.4)]);
  assert.equal(combined.requestsPerSecond, 9000);
  assert.deepEqual(combined.requestsPerSecondRange, [4000, 9400]);
  assert.equal(combined.cpuUsPerRequest, 110);
  assert.equal(combined.eventLoopBusy, 0.95);
  assert.equal(combined.loadGeneratorBusy, 0.4);
  // The aims bound p99: the worst round's is reported, not the median's.
  assert.equal(combined.p99Ms, 40);
});

test('failed requests of any round are counted, and rounds without a CPU figure give none', () => {
  const combined = combineRounds([{ ...round(100, 1), non2xx: 2 }, { ...round(120, 1), errors: 3 }]);
  assert.equal(combined.non2xx, 2);
  assert.equal(combined.errors, 3);
  assert.equal(combined.requestsPerSecond, 110);
  assert.equal(combined.cpuUsPerRequest, undefined);
  assert.equal(combined.eventLoopBusy, undefined);
  assert.equal(combined.loadGeneratorBusy, undefined);
  assert.throws(() => combineRounds([]), /no rounds/);
});

test('each round is set against the bare runs just before and after it, so a slower stretch of the machine that slowed both moves no ratio', () => {
  // The machine slows from the second round on, and the bare route measured around those rounds with it.
  const ratio = ratioToNeighbours([10_000, 6_000, 6_000], [50_000, 50_000, 30_000, 30_000]);
  assert.equal(ratio.median, 0.2);
  assert.deepEqual(ratio.range, [0.15, 0.2]);
  // Against the median of all four bare runs (40,000), the median round (6,000) would read 0.15.
});

test('a round whose bare runs around it are missing is refused, not compared with another round\'s', () => {
  assert.throws(() => ratioToNeighbours([10_000, 9_000], [50_000, 50_000]), /2 rounds need 3 runs of the bare route around them, not 2/);
  assert.throws(() => ratioToNeighbours([], [50_000]), /no rounds/);
});
