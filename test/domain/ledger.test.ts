import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addBusinessDays, isBusinessDay, weekdayOf } from '../../server/domain/business-days.ts';
import {
  reversalAvailableOn,
  reversalEntries,
  saleAvailableOn,
  saleEntries,
  type MoneyRecord,
} from '../../server/domain/ledger.ts';
import {
  arrivalDate,
  decidePayout,
  DEFAULT_SCHEDULE,
  nextPayoutStatus,
  PAYOUT_PROBLEMS,
  scheduledPeriod,
} from '../../server/domain/payouts.ts';

/** The ledger's and payouts' rules as tables over dates; 2026-03-02 is a Monday. */
const sale = (fields: Partial<MoneyRecord> = {}): MoneyRecord => ({
  id: 'txn_s',
  merchant_id: 'm_1',
  kind: 'sale',
  method: 'card',
  amount: 10_000,
  fee_amount: 320,
  completed_at: '2026-03-02T10:00:00.000Z',
  created_at: '2026-03-02T10:00:00.000Z',
  ...fields,
});
const record = (kind: 'refund' | 'void' | 'ach_return', amount: number, at: string) => ({
  ...sale({ id: `txn_${kind}`, kind, amount, fee_amount: 0, created_at: at, completed_at: at }),
  kind,
});

test('business days: Monday to Friday; adding skips the weekend, from any day', () => {
  assert.deepEqual(['2026-03-02', '2026-03-06', '2026-03-07', '2026-03-08'].map(weekdayOf), [
    'monday',
    'friday',
    'saturday',
    'sunday',
  ]);
  assert.deepEqual(['2026-03-06', '2026-03-07'].map(isBusinessDay), [true, false]);
  const cases: [string, number, string][] = [
    ['2026-03-02', 1, '2026-03-03'],
    ['2026-03-05', 2, '2026-03-09'],
    ['2026-03-06', 1, '2026-03-09'],
    ['2026-03-07', 1, '2026-03-09'],
    ['2026-03-08', 2, '2026-03-10'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2026-03-04', 0, '2026-03-04'],
  ];
  for (const [from, n, expected] of cases) assert.equal(addBusinessDays(from, n), expected, `${from} + ${n}`);
});

test('a card sale is available two business days after it settles on its own (48 h); ACH on the day its bank approves it', () => {
  const cases: [string, Partial<MoneyRecord>, string | null][] = [
    ['Monday 10:00: settles Wednesday, available Friday', {}, '2026-03-06'],
    ['Monday 23:59: settles Wednesday 23:59', { completed_at: '2026-03-02T23:59:59.999Z' }, '2026-03-06'],
    ['Thursday: settles Saturday, available Tuesday', { completed_at: '2026-03-05T09:00:00.000Z' }, '2026-03-10'],
    ['Friday: settles Sunday, available Tuesday', { completed_at: '2026-03-06T09:00:00.000Z' }, '2026-03-10'],
    ['Wednesday: settles Friday, available Tuesday', { completed_at: '2026-03-04T09:00:00.000Z' }, '2026-03-10'],
    ['ACH approved Saturday', { method: 'ach', completed_at: '2026-03-07T12:00:00.000Z' }, '2026-03-07'],
    ['ACH waiting for its bank', { method: 'ach', completed_at: null }, null],
  ];
  for (const [name, fields, expected] of cases) assert.equal(saleAvailableOn(sale(fields)), expected, name);
});

test("a sale's entries: its gross and its fee, each its own entry, summing to its net; a zero fee is no entry", () => {
  assert.deepEqual(saleEntries(sale()), [
    {
      merchant_id: 'm_1',
      transaction_id: 'txn_s',
      type: 'sale',
      amount: 10_000,
      available_on: '2026-03-06',
      created_at: '2026-03-02T10:00:00.000Z',
    },
    {
      merchant_id: 'm_1',
      transaction_id: 'txn_s',
      type: 'fee',
      amount: -320,
      available_on: '2026-03-06',
      created_at: '2026-03-02T10:00:00.000Z',
    },
  ]);
  assert.deepEqual(
    saleEntries(sale({ method: 'ach', amount: 1, fee_amount: 0, completed_at: null })).map((e) => [
      e.type,
      e.amount,
      e.available_on,
    ]),
    [['sale', 1, null]],
  );
});

test('a reversal is counted with the sale while the sale is not available yet, else at once', () => {
  const cases: [string, string | null, string, string][] = [
    ['sale pending', '2026-03-06', '2026-03-03T12:00:00.000Z', '2026-03-06'],
    ['sale available today', '2026-03-06', '2026-03-06T00:00:00.000Z', '2026-03-06'],
    ['sale available before', '2026-03-06', '2026-03-09T08:00:00.000Z', '2026-03-09'],
    ['no date (ACH)', null, '2026-03-07T08:00:00.000Z', '2026-03-07'],
  ];
  for (const [name, saleOn, now, expected] of cases)
    assert.equal(reversalAvailableOn(saleOn, new Date(now)), expected, name);
});

test('refunds take back what they refund; voids and returns the whole sale and give back its fee: each sums to its record net', () => {
  const now = '2026-03-03T12:00:00.000Z';
  const refund = reversalEntries(record('refund', 2_500, now), sale(), new Date(now));
  assert.deepEqual(
    refund.map((e) => [e.transaction_id, e.type, e.amount, e.available_on]),
    [['txn_refund', 'refund', -2_500, '2026-03-06']],
  );
  const voided = reversalEntries(record('void', 10_000, now), sale(), new Date(now));
  assert.deepEqual(
    voided.map((e) => [e.type, e.amount, e.available_on]),
    [
      ['void', -10_000, '2026-03-06'],
      ['fee_refund', 320, '2026-03-06'],
    ],
  );
  const achSale = sale({ method: 'ach', fee_amount: 80, completed_at: null });
  const returned = reversalEntries(record('ach_return', 10_000, now), achSale, new Date(now));
  assert.deepEqual(
    returned.map((e) => [e.type, e.amount, e.available_on]),
    [
      ['ach_return', -10_000, '2026-03-03'],
      ['fee_refund', 80, '2026-03-03'],
    ],
  );
  const later = '2026-03-10T09:00:00.000Z';
  assert.deepEqual(
    reversalEntries(record('refund', 10_000, later), sale(), new Date(later)).map((e) => e.available_on),
    ['2026-03-10'],
  );
});

test('schedules: daily on business days, weekly on its anchor day, manual never', () => {
  const cases: [string, Parameters<typeof scheduledPeriod>[0], string, string | undefined][] = [
    ['daily, Monday', DEFAULT_SCHEDULE, '2026-03-02', '2026-03-02'],
    ['daily, Saturday', DEFAULT_SCHEDULE, '2026-03-07', undefined],
    ['weekly Monday, on Monday', { interval: 'weekly', weeklyAnchor: 'monday' }, '2026-03-02', '2026-03-02'],
    ['weekly Monday, on Thursday', { interval: 'weekly', weeklyAnchor: 'monday' }, '2026-03-05', undefined],
    ['weekly Sunday, on Sunday', { interval: 'weekly', weeklyAnchor: 'sunday' }, '2026-03-08', '2026-03-08'],
    ['manual', { interval: 'manual', weeklyAnchor: 'monday' }, '2026-03-02', undefined],
  ];
  for (const [name, schedule, today, expected] of cases) assert.equal(scheduledPeriod(schedule, today), expected, name);
});

test('a payout goes to the bank at the next run, arrives the next business day, paid or failed by its account', () => {
  assert.equal(arrivalDate('2026-03-06'), '2026-03-09');
  const payout = (status: 'pending' | 'in_transit' | 'paid' | 'failed', last = '6789') => ({
    status,
    arrival_date: '2026-03-09',
    bank_last_four: last,
  });
  const cases: [string, ReturnType<typeof payout>, string, string | undefined][] = [
    ['pending', payout('pending'), '2026-03-06', 'in_transit'],
    ['in transit before arrival', payout('in_transit'), '2026-03-08', undefined],
    ['in transit on arrival', payout('in_transit'), '2026-03-09', 'paid'],
    ['in transit after arrival', payout('in_transit'), '2026-03-12', 'paid'],
    ['failing account', payout('in_transit', '1116'), '2026-03-09', 'failed'],
    ['paid stays paid', payout('paid'), '2026-03-20', undefined],
    ['failed stays failed', payout('failed'), '2026-03-20', undefined],
  ];
  for (const [name, p, today, expected] of cases) assert.equal(nextPayoutStatus(p, today), expected, name);
});

test('a payout is made of a positive available balance only, to an account, unless paused', () => {
  const account = { paused: false, bankLastFour: '6789' };
  assert.deepEqual(decidePayout(1, account), { ok: true });
  assert.deepEqual(decidePayout(0, account), {
    ok: false,
    reason: 'conflict',
    message: PAYOUT_PROBLEMS.nothingAvailable(0),
  });
  assert.deepEqual(decidePayout(-250, account), {
    ok: false,
    reason: 'conflict',
    message: PAYOUT_PROBLEMS.nothingAvailable(-250),
  });
  assert.match(PAYOUT_PROBLEMS.nothingAvailable(-250), /-2\.50/);
  assert.deepEqual(decidePayout(500, { ...account, paused: true }), {
    ok: false,
    reason: 'conflict',
    message: PAYOUT_PROBLEMS.paused,
  });
  assert.deepEqual(decidePayout(500, { paused: false, bankLastFour: '' }), {
    ok: false,
    reason: 'conflict',
    message: PAYOUT_PROBLEMS.noBankAccount,
  });
});
