/**
 * The console's rate limits (issue 41): counted per session token, so that invalid tokens from one address, or one
 * merchant's busy console, cannot silence another merchant's console.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { approvedMerchant } from '../../support/payments.ts';
import { consoleCall, consoleSession } from '../../support/console.ts';
import { CONSOLE_READS_PER_MINUTE, INVALID_SESSION_TOKENS_PER_MINUTE } from '../../../server/plugins/console-limits.ts';

describe('the console is limited per session token', () => {
  let service: TestService;
  let merchantKey: string;
  before(async () => {
    service = await startService();
    ({ merchantKey } = await approvedMerchant(service));
  });
  after(() => service.close());

  test(`an address sending invalid tokens is held after ${INVALID_SESSION_TOKENS_PER_MINUTE}; valid tokens from it still work`, async () => {
    const valid = await consoleSession(service, merchantKey);
    assert.equal((await consoleCall(service, valid.session_token)('GET', '?perPage=1')).status, 200);
    const list = (token: string) => consoleCall(service, token)('GET', '?perPage=1');
    for (let i = 0; i < INVALID_SESSION_TOKENS_PER_MINUTE; i++)
      assert.equal((await list(`wst_forged${i}`)).status, 401);
    const held = await list('wst_forged_again');
    assert.deepEqual([held.status, held.body.code], [429, 'rate_limited']);
    assert.match(
      held.body.message,
      /^Too many requests with a missing or invalid session token from your address: try again in \d+ seconds\.$/,
    );
    assert.ok(Number(held.headers['retry-after']) >= 1);
    assert.equal(
      (await service.request('GET', '/api/v1/widgets/transactions')).status,
      429,
      'no token at all counts as invalid too',
    );
    // Valid tokens from the same address, one used before and one new: looked up, and served.
    assert.equal((await list(valid.session_token)).status, 200);
    const fresh = await consoleSession(service, merchantKey);
    assert.equal((await list(fresh.session_token)).status, 200);
  });

  test(`one token's ${CONSOLE_READS_PER_MINUTE} reads a minute do not use up another token's`, async () => {
    const busy = await consoleSession(service, merchantKey);
    const other = await consoleSession(service, merchantKey);
    const list = (token: string) => consoleCall(service, token)('GET', '?perPage=1');
    const answers = [];
    // Twenty at a time: one address may not open more connections than its share.
    for (let sent = 0; sent <= CONSOLE_READS_PER_MINUTE; sent += 20) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(20, CONSOLE_READS_PER_MINUTE + 1 - sent) }, () => list(busy.session_token)),
        )),
      );
    }
    assert.equal(answers.filter((answer) => answer.status === 429).length, 1, 'the busy token is held past its bound');
    assert.equal((await list(other.session_token)).status, 200, 'another token, from the same address, is not');
  });
});
