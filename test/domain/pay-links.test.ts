import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LINK_PROBLEMS, paidLinkOutcome, payLinkStatus, payPath, qrPath } from '../../server/domain/pay-links.ts';

const NOW = new Date('2026-03-02T10:00:00.000Z');
const later = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

test('a pay link is open until its expiry, expired from that very instant, and paid once paid, whenever read', () => {
  const cases: [string, 'open' | 'paid', string, 'open' | 'paid' | 'expired'][] = [
    ['open, expires in a week', 'open', later(7 * 86_400_000), 'open'],
    ['open, expires in a millisecond', 'open', later(1), 'open'],
    ['open, expires this instant', 'open', later(0), 'expired'],
    ['open, expired a millisecond ago', 'open', later(-1), 'expired'],
    ['paid before its expiry', 'paid', later(86_400_000), 'paid'],
    ['paid, read after its expiry', 'paid', later(-86_400_000), 'paid'],
  ];
  for (const [name, status, expires_at, seen] of cases)
    assert.equal(payLinkStatus({ status, expires_at }, NOW), seen, name);
});

test('a paid link as the pay button sees it: the payment made through it decides', () => {
  const cases: [ReturnType<typeof payLinkStatus>, string | undefined, string][] = [
    ['open', undefined, 'open'],
    ['expired', undefined, 'expired'],
    ['open', 'declined', 'open'],
    ['paid', 'completed', 'paid'],
    ['paid', 'refunded', 'paid'],
    ['paid', undefined, 'paid'],
    ['paid', 'pending', 'pending'],
    ['paid', 'declined', 'declined'],
  ];
  for (const [status, payment, seen] of cases)
    assert.equal(paidLinkOutcome(status, payment), seen, `${status} with a ${payment ?? 'missing'} payment`);
});

test('where a link lives, and the words for a link that cannot be paid', () => {
  assert.equal(payPath('tok_1'), '/pay/tok_1');
  assert.equal(qrPath('tok_1'), '/pay/tok_1/qr.png');
  assert.deepEqual(Object.keys(LINK_PROBLEMS).sort(), ['expired', 'paid', 'unknown']);
});
