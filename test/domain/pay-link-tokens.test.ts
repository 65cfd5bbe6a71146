import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPayLinkToken, payLinkKey } from '../../server/pay-link-tokens.ts';
import { digest, newToken } from '../../server/secrets.ts';
import { waitUntil } from '../support/wait.ts';

test('a pay-link token is pl_, the time in 12 hex digits and 256 random bits; never the same twice', () => {
  const before = Date.now();
  const tokens = Array.from({ length: 5000 }, () => newPayLinkToken());
  for (const token of tokens) {
    assert.match(token, /^pl_[0-9a-f]{12}[A-Za-z0-9_-]{43}$/);
    const made = parseInt(token.slice(3, 15), 16);
    assert.ok(made >= before && made <= Date.now(), token);
  }
  assert.equal(new Set(tokens).size, tokens.length);
});

test('keys are the token’s time then its digest, so later links sort after earlier ones', async () => {
  const first = newPayLinkToken();
  const madeAt = Date.now();
  await waitUntil(() => Date.now() > madeAt, { what: 'the next millisecond', everyMs: 1 });
  const second = newPayLinkToken();
  assert.equal(payLinkKey(first), `${first.slice(3, 15)}${digest(first)}`);
  assert.ok(payLinkKey(first) < payLinkKey(second));
  assert.equal(payLinkKey(first), payLinkKey(first));
});

test('a token made before times were added, or of any other shape, is known by its bare digest', () => {
  const older = newToken('pl_');
  assert.equal(payLinkKey(older), digest(older));
  for (const other of ['pl_madeup', `pl_0123456789AB${older.slice(3)}`, `PL_0123456789ab${older.slice(3)}`, '']) {
    assert.equal(payLinkKey(other), digest(other));
  }
});
