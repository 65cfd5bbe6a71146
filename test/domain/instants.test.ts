import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isoInstant } from '../../server/domain/instants.ts';

/** The whole range a Date holds: ±100,000,000 days around 1970. */
const DATE_LIMIT_MS = 8.64e15;

test('an instant is written exactly as toISOString writes it, anywhere a Date can be', () => {
  fc.assert(
    fc.property(fc.integer({ min: -DATE_LIMIT_MS, max: DATE_LIMIT_MS }), (ms) => {
      const date = new Date(ms);
      assert.equal(isoInstant(date), date.toISOString());
    }),
    { numRuns: 20_000, seed: 16 },
  );
});

test('an instant near now, and the days around it, one millisecond at a time where the text turns over', () => {
  // Milliseconds around midnight, the turn of a minute, of a leap day and of a century that is not a leap year.
  const edges = [
    '2026-11-25T23:59:59.998Z',
    '2028-02-28T23:59:59.999Z',
    '2028-02-29T23:59:59.999Z',
    '2100-02-28T23:59:59.999Z',
    '1969-12-31T23:59:59.999Z',
    '0000-01-01T00:00:00.000Z',
    '9999-12-31T23:59:59.999Z',
  ];
  for (const edge of edges) {
    const start = Date.parse(edge);
    for (let ms = start - 3; ms <= start + 3; ms++) assert.equal(isoInstant(new Date(ms)), new Date(ms).toISOString());
  }
  // Past four-digit years V8 writes six digits and a sign; those pass through whole.
  assert.equal(isoInstant(new Date(Date.parse('+010000-01-01T00:00:00.000Z'))), '+010000-01-01T00:00:00.000Z');
  assert.equal(isoInstant(new Date(Date.parse('-000001-12-31T23:59:59.999Z'))), '-000001-12-31T23:59:59.999Z');
});

test('an instant some time from a date is the one a Date that far from it writes', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: -DATE_LIMIT_MS / 2, max: DATE_LIMIT_MS / 2 }),
      fc.integer({ min: -DATE_LIMIT_MS / 2, max: DATE_LIMIT_MS / 2 }),
      (ms, offset) => {
        assert.equal(isoInstant(new Date(ms), offset), new Date(ms + offset).toISOString());
      },
    ),
    { numRuns: 20_000, seed: 16 },
  );
  // A day ahead of now, and an hour back, where the day is already known.
  const now = new Date('2026-11-25T23:30:00.000Z');
  assert.equal(isoInstant(now), '2026-11-25T23:30:00.000Z');
  assert.equal(isoInstant(now, 86_400_000), '2026-11-26T23:30:00.000Z');
  assert.equal(isoInstant(now, -3_600_000), '2026-11-25T22:30:00.000Z');
});

test('an invalid date is refused as toISOString refuses it, and so is an instant past the end of time', () => {
  assert.throws(() => isoInstant(new Date(Number.NaN)), RangeError);
  assert.throws(() => isoInstant(new Date(DATE_LIMIT_MS), 1), RangeError);
});
