import { test } from 'node:test';
import assert from 'node:assert/strict';
import { combineRounds } from '../../bench/rounds.ts';

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
