import { test } from 'node:test';
import assert from 'node:assert/strict';
import { combineRounds } from '../../bench/rounds.ts';

const round = (requestsPerSecond: number, p99Ms: number) => ({ requestsPerSecond, p99Ms, non2xx: 0, errors: 0 });

test("an endpoint's figure is its median round: one round that a burst of other work fell into does not move it", () => {
  const combined = combineRounds([round(9000, 12), round(4000, 40), round(9400, 10)]);
  assert.equal(combined.requestsPerSecond, 9000);
  assert.deepEqual(combined.requestsPerSecondRange, [4000, 9400]);
  // The worst round's p99 is reported, not the median's.
  assert.equal(combined.p99Ms, 40);
});

test('failed requests of any round are counted', () => {
  const combined = combineRounds([
    { ...round(100, 1), non2xx: 2 },
    { ...round(120, 1), errors: 3 },
  ]);
  assert.equal(combined.non2xx, 2);
  assert.equal(combined.errors, 3);
  assert.equal(combined.requestsPerSecond, 110);
  assert.throws(() => combineRounds([]), /no rounds/);
});
