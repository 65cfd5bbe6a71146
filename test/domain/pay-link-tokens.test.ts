import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPayLink, payLinkKey } from '../../server/services/pay-link-tokens.ts';
import { digest, newToken } from '../../server/platform/secrets.ts';
import { waitUntil } from '../support/wait.ts';

test('a pay-link token is pl_, the time in 12 hex digits and 256 random bits; never the same twice', () => {
  const before = Date.now();
  const tokens = Array.from({ length: 5000 }, () => newPayLink().token);
  for (const token of tokens) {
    assert.match(token, /^pl_[0-9a-f]{12}[A-Za-z0-9_-]{43}$/);
    const made = parseInt(token.slice(3, 15), 16);
    assert.ok(made >= before && made <= Date.now(), token);
  }
  assert.equal(new Set(tokens).size, tokens.length);
});

test('keys are the token’s time then its digest, so later links sort after earlier ones', async () => {
  const first = newPayLink();
  const madeAt = Date.now();
  await waitUntil(() => Date.now() > madeAt, { what: 'the next millisecond', everyMs: 1 });
  const second = newPayLink();
  assert.equal(first.key, `${first.token.slice(3, 15)}${digest(first.token)}`);
  assert.equal(payLinkKey(first.token), first.key);
  assert.equal(payLinkKey(second.token), second.key);
  assert.ok(first.key < second.key);
});

test('a token of any other shape, one without its time among them, has no key: it names no link', () => {
  const untimed = newToken('pl_');
  for (const other of [
    untimed,
    'pl_madeup',
    `pl_0123456789AB${untimed.slice(3)}`,
    `PL_0123456789ab${untimed.slice(3)}`,
    `pl_0123456789ab${untimed.slice(3)}x`,
    '',
  ]) {
    assert.equal(payLinkKey(other), undefined, other);
  }
});
