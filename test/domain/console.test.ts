import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  consoleStates,
  decideUndo,
  refundableAmount,
  merchantWords,
  searchTerms,
  voidableUntil,
} from '../../server/domain/console.ts';
import type { Refundable } from '../../server/domain/refunds.ts';

const COMPLETED = '2026-03-01T12:00:00.000Z';
const at = (hoursAfter: number) => new Date(Date.parse(COMPLETED) + hoursAfter * 3_600_000);
const sale = (changes: Partial<Refundable> = {}): Refundable => ({
  kind: 'sale',
  status: 'completed',
  amount: 5_000,
  refunded: 0,
  completedAt: COMPLETED,
  settledAt: null,
  ...changes,
});

test('undo sale: a void until the sale settles (48 hours, or the batch closing), a full refund of the rest after', () => {
  const cases: [string, Refundable | undefined, Date, unknown][] = [
    ['just made', sale(), at(0), { ok: true, as: 'void' }],
    ['a minute before it settles on its own', sale(), at(48 - 1 / 60), { ok: true, as: 'void' }],
    ['the moment it settles on its own', sale(), at(48), { ok: true, as: 'refund', amount: 5_000 }],
    ['after', sale(), at(72), { ok: true, as: 'refund', amount: 5_000 }],
    ['its batch closed', sale({ settledAt: at(1).toISOString() }), at(2), { ok: true, as: 'refund', amount: 5_000 }],
    [
      'refunded in part, not settled: the rest is refunded',
      sale({ refunded: 1_500 }),
      at(1),
      { ok: true, as: 'refund', amount: 3_500 },
    ],
    ['refunded in part, settled', sale({ refunded: 1_500 }), at(50), { ok: true, as: 'refund', amount: 3_500 }],
    [
      'refunded in full',
      sale({ refunded: 5_000 }),
      at(50),
      { ok: false, reason: 'conflict', message: 'Refund already done. No refund allowed.' },
    ],
    [
      'voided',
      sale({ status: 'voided' }),
      at(1),
      { ok: false, reason: 'conflict', message: 'Nothing is left to undo: the sale was voided or refunded in full.' },
    ],
    [
      'a refund record',
      sale({ kind: 'refund' }),
      at(1),
      { ok: false, reason: 'not_found', message: 'Payment method not found.' },
    ],
    [
      'an ACH payment waiting',
      sale({ status: 'pending', completedAt: null }),
      at(1),
      { ok: false, reason: 'not_found', message: 'Payment method not found.' },
    ],
    ['nothing', undefined, at(1), { ok: false, reason: 'not_found', message: 'Payment method not found.' }],
  ];
  for (const [name, given, now, expected] of cases) assert.deepEqual(decideUndo(given, now), expected, name);
});

test('voidable until the moment the sale settles on its own, while a void is possible at all', () => {
  assert.equal(voidableUntil(sale(), at(0)), '2026-03-03T12:00:00.000Z');
  assert.equal(voidableUntil(sale(), at(47)), '2026-03-03T12:00:00.000Z');
  assert.equal(voidableUntil(sale(), at(48)), null);
  assert.equal(voidableUntil(sale({ settledAt: at(1).toISOString() }), at(2)), null);
  assert.equal(voidableUntil(sale({ refunded: 1 }), at(1)), null);
  assert.equal(voidableUntil(sale({ status: 'voided' }), at(1)), null);
  assert.equal(voidableUntil(sale({ kind: 'preauth', status: 'authorized' }), at(1)), null);
});

test('refundable: the rest of a completed sale, else nothing', () => {
  assert.equal(refundableAmount(sale()), 5_000);
  assert.equal(refundableAmount(sale({ refunded: 1_250 })), 3_750);
  assert.equal(refundableAmount(sale({ refunded: 5_000 })), 0);
  assert.equal(refundableAmount(sale({ status: 'voided' })), 0);
  assert.equal(refundableAmount(sale({ kind: 'refund' })), 0);
});

test('a search text is an id or order id (in any case), and also a last four, an amount or an e-mail when it can be one', () => {
  const none = { lastFour: undefined, amount: undefined, email: undefined };
  assert.deepEqual(searchTerms(' 4242 '), { ...none, text: '4242', key: '4242', lastFour: '4242', amount: 424_200 });
  assert.deepEqual(searchTerms('12.50'), { ...none, text: '12.50', key: '12.50', amount: 1_250 });
  assert.deepEqual(searchTerms('Order-7'), { ...none, text: 'Order-7', key: 'order-7' });
  assert.deepEqual(searchTerms('12.505'), { ...none, text: '12.505', key: '12.505' });
  for (const typed of ['$12.50', ' $ 12.50', '12.50$', 'usd 12.50', '12.50 USD', 'US$12.50'])
    assert.equal(searchTerms(typed).amount, 1_250, `${typed}: an amount with its currency sign`);
  assert.equal(searchTerms('$1,234.50').amount, 123_450, 'grouping commas');
  for (const notOne of ['$', '$$12', '1,23.50', '12.50 EUR', '€12.50', '$-5'])
    assert.equal(searchTerms(notOne).amount, undefined, notOne);
  assert.deepEqual(searchTerms('Ann.Lee@Example.COM'), {
    ...none,
    text: 'Ann.Lee@Example.COM',
    key: 'ann.lee@example.com',
    email: 'ann.lee@example.com',
  });
  assert.equal(searchTerms('ÄÖ-Straße-A').key, 'ÄÖ-straße-a', 'ASCII letters alone, as both databases fold them');
});

test("the console's states: each kind and status filter, alone and together, is the states it allows", () => {
  assert.equal(consoleStates(undefined, undefined), undefined);
  assert.deepEqual(consoleStates('sale', undefined), ['completed', 'refunded', 'voided', 'pending', 'declined']);
  assert.deepEqual(consoleStates(undefined, 'completed'), ['completed', 'refund', 'void', 'ach_return']);
  assert.deepEqual(consoleStates('sale', 'completed'), ['completed']);
  assert.deepEqual(consoleStates('refund', 'completed'), ['refund']);
  assert.deepEqual(consoleStates('refund', 'voided'), [], 'a refund is never voided: nothing to read');
  assert.deepEqual(consoleStates(undefined, 'voided'), ['voided'], 'holds are listed only with kind=hold');
  assert.deepEqual(consoleStates('hold', 'voided'), ['hold_voided']);
  assert.deepEqual(consoleStates('hold', undefined), ['hold_authorized', 'hold_captured', 'hold_voided']);
  assert.deepEqual(consoleStates('hold', 'pending'), []);
});

test("the console's refusals in a merchant's words, with what to do; the API's fixed messages stay the API's", () => {
  const sale = {
    kind: 'sale',
    status: 'completed',
    amount: 5_000,
    refunded: 1_250,
    completedAt: null,
    settledAt: null,
  };
  assert.equal(
    merchantWords('The amount should not be greater than the remaining amount.', sale),
    'Refund at most 37.50: that is what is left of this payment.',
  );
  assert.equal(
    merchantWords('Refund already done. No refund allowed.', sale),
    'This payment was refunded in full already: there is nothing left to refund.',
  );
  assert.match(merchantWords('The transaction has been settled, a void is not allowed.', sale), /refund it instead/);
  assert.match(merchantWords('Authorization not found', undefined), /reload the list/);
  assert.equal(merchantWords('Something else entirely.', sale), 'Something else entirely.');
});
