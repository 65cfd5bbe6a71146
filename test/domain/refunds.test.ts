import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  AUTO_SETTLE_MS,
  decideRefund,
  decideVoid,
  isSettled,
  REFUND_ERRORS,
  VOID_ERRORS,
  type Refundable,
} from '../../server/domain/refunds.ts';

/** Refund and void rules (interface rule 1), as tables over the sale's age; the HTTP suites check the wiring. */
const HOUR = 3_600_000;
const COMPLETED = Date.parse('2026-03-02T10:00:00.000Z');
const at = (ageMs: number) => new Date(COMPLETED + ageMs);
const sale = (fields: Partial<Refundable> = {}): Refundable => ({
  kind: 'sale',
  status: 'completed',
  amount: 6000,
  refunded: 0,
  completedAt: new Date(COMPLETED).toISOString(),
  settledAt: null,
  ...fields,
});

test('settlement: on its own exactly 48 hours after completion, or at once when the batch closed', () => {
  const cases: [string, Partial<Refundable>, number, boolean][] = [
    ['just completed', {}, 0, false],
    ['a millisecond before 48 h', {}, AUTO_SETTLE_MS - 1, false],
    ['exactly 48 h', {}, 48 * HOUR, true],
    ['after 48 h', {}, 49 * HOUR, true],
    ['batch closed', { settledAt: new Date(COMPLETED + HOUR).toISOString() }, HOUR, true],
    ['never completed', { completedAt: null }, 100 * HOUR, false],
  ];
  for (const [name, fields, age, settled] of cases) assert.equal(isSettled(sale(fields), at(age)), settled, name);
});

test('a full refund is a refund up to exactly 24 hours, a void after, and a refund again once settled at 48 hours', () => {
  const cases: [string, number, 'refund' | 'void'][] = [
    ['at once', 0, 'refund'],
    ['23 h 59 min', 24 * HOUR - 60_000, 'refund'],
    ['exactly 24 h', 24 * HOUR, 'refund'],
    ['24 h and a millisecond', 24 * HOUR + 1, 'void'],
    ['25 h', 25 * HOUR, 'void'],
    ['a millisecond before 48 h', 48 * HOUR - 1, 'void'],
    ['exactly 48 h (settled)', 48 * HOUR, 'refund'],
    ['a week (settled)', 7 * 24 * HOUR, 'refund'],
  ];
  for (const [name, age, as] of cases)
    assert.deepEqual(decideRefund(sale(), 6000, at(age)), { ok: true, as, refundedAtMost: 0 }, name);
});

test('a partial refund, or a full one of what is left, stays a refund at every age; the bound is what may be refunded meanwhile', () => {
  for (const age of [0, 24 * HOUR, 24 * HOUR + 1, 30 * HOUR, 48 * HOUR]) {
    assert.deepEqual(
      decideRefund(sale(), 2500, at(age)),
      { ok: true, as: 'refund', refundedAtMost: 3500 },
      `partial at ${age} ms`,
    );
    assert.deepEqual(
      decideRefund(sale({ refunded: 1000 }), 5000, at(age)),
      { ok: true, as: 'refund', refundedAtMost: 1000 },
      `the rest at ${age} ms`,
    );
  }
  assert.deepEqual(
    decideRefund(sale({ settledAt: new Date(COMPLETED + HOUR).toISOString() }), 6000, at(30 * HOUR)),
    { ok: true, as: 'refund', refundedAtMost: 0 },
    'settled by the batch',
  );
});

test('refunds refused: each with its reason and message, checked in this order', () => {
  const now = at(HOUR);
  const cases: [string, Refundable | undefined, number, string, string][] = [
    ['no such sale', undefined, 100, 'not_found', REFUND_ERRORS.notFound],
    ['an authorization', sale({ kind: 'preauth', status: 'authorized' }), 100, 'not_found', REFUND_ERRORS.notFound],
    ['a voided sale', sale({ status: 'voided' }), 100, 'not_found', REFUND_ERRORS.notFound],
    ['a pending bank payment', sale({ status: 'pending' }), 100, 'not_found', REFUND_ERRORS.notFound],
    ['refunded in full', sale({ refunded: 6000 }), 100, 'conflict', REFUND_ERRORS.alreadyRefunded],
    ['more than the sale', sale(), 6001, 'invalid_request', REFUND_ERRORS.overOriginal],
    [
      'more than the sale, partly refunded',
      sale({ refunded: 1000 }),
      7000,
      'invalid_request',
      REFUND_ERRORS.overOriginal,
    ],
    ['more than what is left', sale({ refunded: 1000 }), 5001, 'invalid_request', REFUND_ERRORS.overRemaining],
  ];
  for (const [name, refundable, amount, reason, message] of cases)
    assert.deepEqual(decideRefund(refundable, amount, now), { ok: false, reason, message }, name);
  assert.equal(decideRefund(sale({ refunded: 1000 }), 5000, now).ok, true, 'exactly what is left');
});

test('a void: allowed until the sale settles (a millisecond before 48 hours), refused after and otherwise', () => {
  const allowed: [string, number][] = [
    ['at once', 0],
    ['exactly 24 h', 24 * HOUR],
    ['25 h', 25 * HOUR],
    ['a millisecond before 48 h', 48 * HOUR - 1],
  ];
  for (const [name, age] of allowed) assert.deepEqual(decideVoid(sale(), at(age)), { ok: true }, name);
  const refused: [string, Refundable | undefined, number, string, string][] = [
    ['exactly 48 h', sale(), 48 * HOUR, 'conflict', VOID_ERRORS.settled],
    [
      'settled by the batch',
      sale({ settledAt: new Date(COMPLETED).toISOString() }),
      HOUR,
      'conflict',
      VOID_ERRORS.settled,
    ],
    ['partly refunded', sale({ refunded: 1 }), HOUR, 'conflict', VOID_ERRORS.refunded],
    ['voided already', sale({ status: 'voided' }), HOUR, 'conflict', VOID_ERRORS.voided],
    ['no such sale', undefined, HOUR, 'not_found', VOID_ERRORS.notFound],
    ['an authorization', sale({ kind: 'preauth', status: 'authorized' }), HOUR, 'not_found', VOID_ERRORS.notFound],
    ['a declined payment', sale({ status: 'declined' }), HOUR, 'not_found', VOID_ERRORS.notFound],
  ];
  for (const [name, refundable, age, reason, message] of refused)
    assert.deepEqual(decideVoid(refundable, at(age)), { ok: false, reason, message }, name);
});
