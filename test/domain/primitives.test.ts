import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatAmount, parseAmount, positiveAmount, toMajorNumber } from '../../server/domain/money.ts';
import { isValidAccountNumber, isValidRoutingNumber } from '../../server/domain/routing-number.ts';
import { isCountryCode, isEmail, isWebsite } from '../../server/domain/contact.ts';
import { normalizePhone } from '../../rules/phone.ts';
import { isIsoDate, isoDateOf, yearsBetween } from '../../server/domain/calendar.ts';

test('amounts: decimal text to minor units and back', () => {
  assert.equal(parseAmount('10'), 1000);
  assert.equal(parseAmount('10.5'), 1050);
  assert.equal(parseAmount('0.07'), 7);
  assert.equal(parseAmount(' 12.34 '), 1234);
  for (const bad of ['', '1.234', '-1', '1e3', '1,00', 'abc', '.5', '99999999999999'])
    assert.equal(parseAmount(bad), null, bad);
  assert.equal(formatAmount(1050), '10.50');
  assert.equal(formatAmount(7), '0.07');
  assert.equal(formatAmount(-250), '-2.50');
  assert.equal(toMajorNumber(1050), 10.5);
});

test('amounts to move: negative and zero "must be more than zero", other text says what to send (issue 44)', () => {
  assert.equal(positiveAmount('amount', '12.50'), 1250);
  assert.equal(positiveAmount('amount', 0.5), 50);
  for (const small of ['-5', '-5.00', -5, '0', 0, '0.00', ' -0.01 '])
    assert.deepEqual(
      positiveAmount('amount', small),
      { problem: 'amount must be more than zero: send the amount to move, such as "25.00".' },
      String(small),
    );
  for (const bad of ['$5', '5.001', 'ten', '--5', '1e3', ''])
    assert.deepEqual(
      positiveAmount('tax', bad, '1.00'),
      { problem: 'tax must be a number with at most two decimals and no currency sign, such as "1.00".' },
      bad,
    );
});

test('routing numbers: the ABA checksum', () => {
  assert.ok(isValidRoutingNumber('110000000'));
  assert.ok(isValidRoutingNumber('021000021'));
  assert.ok(!isValidRoutingNumber('021000022'));
  assert.ok(!isValidRoutingNumber('000000000'));
  assert.ok(!isValidRoutingNumber('11000000'));
  assert.ok(isValidAccountNumber('1234') && isValidAccountNumber('12345678901234567'));
  assert.ok(!isValidAccountNumber('123') && !isValidAccountNumber('123456789012345678'));
});

test('contacts: e-mail, phone, website and country', () => {
  assert.ok(isEmail('a@b.co'));
  assert.ok(!isEmail('a@b') && !isEmail('a b@c.de'));
  assert.equal(normalizePhone('(415) 555-0123'), '+14155550123');
  assert.equal(normalizePhone('1-415-555-0123'), '+14155550123');
  assert.equal(normalizePhone('+44 20 7946 0958'), '+442079460958');
  assert.equal(normalizePhone('555-0123'), null);
  assert.equal(normalizePhone('+1 phone'), null);
  assert.ok(isWebsite('https://shop.example') && !isWebsite('shop.example') && !isWebsite('https://localhost'));
  assert.ok(isCountryCode('US') && isCountryCode('DE'));
  assert.ok(!isCountryCode('us') && !isCountryCode('ZZ') && !isCountryCode('XQ'));
});

test('calendar dates', () => {
  assert.ok(isIsoDate('2024-02-29'));
  assert.ok(!isIsoDate('2023-02-29') && !isIsoDate('2023-2-01'));
  assert.equal(isoDateOf(new Date('2026-11-22T23:59:59Z')), '2026-11-22');
  assert.equal(yearsBetween('2008-11-22', '2026-11-22'), 18);
  assert.equal(yearsBetween('2008-11-23', '2026-11-22'), 17);
});
