import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkOpenAuthorization, decideAmountChange, PREAUTH_ERRORS } from '../../server/domain/preauth.ts';

const hold = (status: string, amount = 1000) => ({ kind: 'preauth', status, amount });

test('an open authorization may move; an unknown one is not found; a captured or voided one is a conflict that says which', () => {
  assert.deepEqual(checkOpenAuthorization(hold('authorized')), { ok: true });
  assert.deepEqual(checkOpenAuthorization(undefined), {
    ok: false,
    reason: 'not_found',
    message: PREAUTH_ERRORS.notFound,
  });
  assert.deepEqual(checkOpenAuthorization({ kind: 'sale', status: 'completed', amount: 1000 }), {
    ok: false,
    reason: 'not_found',
    message: PREAUTH_ERRORS.notFound,
  });
  assert.deepEqual(checkOpenAuthorization(hold('captured')), {
    ok: false,
    reason: 'conflict',
    message: PREAUTH_ERRORS.captured,
  });
  assert.deepEqual(checkOpenAuthorization(hold('voided')), {
    ok: false,
    reason: 'conflict',
    message: PREAUTH_ERRORS.voided,
  });
  assert.deepEqual(checkOpenAuthorization(hold('authorized'), 900), {
    ok: false,
    reason: 'conflict',
    message: PREAUTH_ERRORS.mismatch,
  });
  assert.deepEqual(decideAmountChange(hold('captured'), 1000, 1200), {
    ok: false,
    reason: 'conflict',
    message: PREAUTH_ERRORS.captured,
  });
  assert.deepEqual(decideAmountChange(hold('authorized'), 1000, 1200), { ok: true, event: 'preauth.increment' });
});
