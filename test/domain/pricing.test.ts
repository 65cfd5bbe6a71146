import { test } from 'node:test';
import assert from 'node:assert/strict';
import { feePercentage, processingFee, type PaymentMethod } from '../../server/domain/pricing.ts';

/** The published pricing (docs/payments.md) for every method: cards 2.9% + 0.30, ACH 0.8% capped at 5.00, half up to the cent. */
test('processing fees for every method, at the rounding and cap boundaries', () => {
  const cases: [PaymentMethod, number, number, string][] = [
    ['card', 1, 30, 'the fixed part alone'],
    ['card', 100, 33, '2.9 cents round to 3'],
    ['card', 500, 45, '14.5 cents round half up to 15'],
    ['card', 517, 45, '14.993 cents round to 15'],
    ['card', 10_000, 320, '100.00'],
    ['card', 1_000_000, 29_030, 'no cap on cards'],
    ['ach', 1, 0, 'under half a cent'],
    ['ach', 62, 0, '0.496 cents round down'],
    ['ach', 63, 1, '0.504 cents round up'],
    ['ach', 10_000, 80, '100.00'],
    ['ach', 62_500, 500, 'exactly at the cap'],
    ['ach', 62_562, 500, 'just over the cap'],
    ['ach', 62_499, 500, '499.992 cents round to the cap'],
    ['ach', 62_437, 499, 'just under the cap'],
    ['ach', 10_000_000, 500, 'capped'],
  ];
  for (const [method, amount, fee, name] of cases)
    assert.equal(processingFee(method, amount), fee, `${method} ${amount}: ${name}`);
});

test('the percentage as the interface writes it, for every method', () => {
  assert.deepEqual((['card', 'ach'] as const).map(feePercentage), ['2.9000000', '0.8000000']);
});
