import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import {
  FAILED_AUTHENTICATIONS_PER_ADDRESS_PER_MINUTE,
  FAILED_AUTHENTICATIONS_PER_MINUTE,
  FailedLogins,
} from '../../../server/plugins/failed-logins.ts';
import { RateLimiter } from '../../../server/plugins/rate-limit.ts';
import type { NewClientCredentials } from '../../../server/services/clients.ts';
import { CLIENTS_PER_ADDRESS_PER_HOUR } from '../../../server/routes/pages/portal.ts';
import { send } from '../../support/http.ts';
import { serviceWithLog } from '../../support/logged-service.ts';
import { createOperator } from '../../../server/services/merchant-review.ts';

const TOO_MANY = /^Too many failed authentications from your address: try again in \d+ seconds\.$/;

function merchants(
  service: TestService,
  client: NewClientCredentials,
  secret = client.secretKey,
  headers: Record<string, string> = {},
) {
  return service.api('GET', '/merchant', { auth: { id: client.clientId, secret }, headers });
}

async function guessUntilLimited(
  service: TestService,
  client: NewClientCredentials,
  headers: Record<string, string> = {},
) {
  for (let i = 0; i < FAILED_AUTHENTICATIONS_PER_MINUTE; i++) {
    assert.equal((await merchants(service, client, `sk_guess_${i}`, headers)).status, 401);
  }
  const limited = await merchants(service, client, 'sk_guess_again', headers);
  assert.equal(limited.status, 429);
  assert.deepEqual([limited.body.result, limited.body.code], [false, 'rate_limited']);
  assert.match(limited.body.message, TOO_MANY);
  assert.ok(Number(limited.headers['retry-after']) >= 1 && Number(limited.headers['retry-after']) <= 60);
}

describe('failed logins throttle the guesser, not the neighbours', () => {
  let service: TestService;
  before(async () => {
    service = await startService();
  });
  after(() => service.close());

  test(`${FAILED_AUTHENTICATIONS_PER_MINUTE} wrong secrets for client A hold A's guesser; client B at the same address still gets in`, async () => {
    const a = await service.newClient('Guessed partner');
    const b = await service.newClient('Neighbour partner');
    await guessUntilLimited(service, a);
    // B's credentials were never verified by this process: they are checked, and pass.
    assert.equal((await merchants(service, b)).status, 200);
    assert.equal(
      (await merchants(service, b, 'sk_wrong')).status,
      401,
      'B’s own wrong secret is a 401, not a 429: its count is its own',
    );
  });

  test('credentials that verified before are not held up by guesses at their own id', async () => {
    const a = await service.newClient('Busy partner');
    assert.equal((await merchants(service, a)).status, 200);
    await guessUntilLimited(service, a);
    assert.equal((await merchants(service, a)).status, 200);
  });

  test(`past ${FAILED_AUTHENTICATIONS_PER_ADDRESS_PER_MINUTE} failures from one address across ids, each id gets one guess a minute, and correct credentials still pass`, async () => {
    // A service of the test's own, so that its address's count starts at zero.
    const own = await startService();
    try {
      const id = (i: number) => ({ clientId: `cli_guess_${i}`, secretKey: 'sk_x' }) as NewClientCredentials;
      for (let i = 0; i < FAILED_AUTHENTICATIONS_PER_ADDRESS_PER_MINUTE; i++)
        assert.equal((await merchants(own, id(i % 20))).status, 401, `guess ${i}`);
      const again = await merchants(own, id(0), 'sk_y');
      assert.equal(again.status, 429, 'an id already failed at is not tried again');
      assert.match(again.body.message, TOO_MANY);
      assert.equal((await merchants(own, id(1000))).status, 401, 'a first try at another id is checked');
      assert.equal((await merchants(own, id(1000))).status, 429, 'and then it waits too');
      const partner = await own.newClient('Partner behind the same proxy');
      assert.equal((await merchants(own, partner)).status, 200);
    } finally {
      await own.close();
    }
  });

  test('wrong operator tokens hold their sender, not an operator whose token verified', async () => {
    const own = await startService();
    try {
      const operator = await createOperator(own.store, 'Review desk', own.clock.now());
      const asOperator = (token: string) =>
        own.request('GET', '/operator/v1/merchants', { headers: { authorization: `Bearer ${token}` } });
      assert.equal((await asOperator(operator.token)).status, 200);
      for (let i = 0; i < FAILED_AUTHENTICATIONS_PER_MINUTE; i++)
        assert.equal((await asOperator(`op_guess${i}`)).status, 401);
      const limited = await asOperator('op_guess');
      assert.deepEqual([limited.status, limited.body.code], [429, 'rate_limited']);
      assert.ok(Number(limited.headers['retry-after']) >= 1);
      assert.equal((await asOperator(operator.token)).status, 200);
    } finally {
      await own.close();
    }
  });
});

describe('the caller address behind proxies (PAYKIT_TRUST_PROXY)', () => {
  test('behind a trusted proxy, failures count per X-Forwarded-For address', async () => {
    const service = await startService({ network: { trustProxy: ['127.0.0.1'] } });
    try {
      const a = await service.newClient('Guessed partner');
      const b = await service.newClient('Neighbour partner');
      const guesser = { 'x-forwarded-for': '203.0.113.7' };
      await guessUntilLimited(service, a, guesser);
      // The same id from another caller of the same proxy is still checked: its count is its own.
      assert.equal((await merchants(service, a, 'sk_wrong', { 'x-forwarded-for': '198.51.100.20' })).status, 401);
      assert.equal((await merchants(service, a, a.secretKey, { 'x-forwarded-for': '198.51.100.20' })).status, 200);
      assert.equal((await merchants(service, b, b.secretKey, { 'x-forwarded-for': '198.51.100.21' })).status, 200);
      // A chain: the nearest address that is not a trusted proxy is the caller.
      assert.equal(
        (await merchants(service, a, 'sk_wrong', { 'x-forwarded-for': '198.51.100.99, 203.0.113.7' })).status,
        429,
      );
    } finally {
      await service.close();
    }
  });

  test('behind a trusted proxy, the other limits count per forwarded address too (the portal’s, here)', async () => {
    const service = await startService({ network: { trustProxy: ['127.0.0.1'] } });
    try {
      const make = (address: string) =>
        service.request('POST', '/portal/credentials', {
          form: { name: 'Partner' },
          headers: { origin: service.baseUrl, 'x-forwarded-for': address },
        });
      for (let i = 0; i < CLIENTS_PER_ADDRESS_PER_HOUR; i++) assert.equal((await make('203.0.113.7')).status, 200);
      assert.equal((await make('203.0.113.7')).status, 429);
      assert.equal((await make('198.51.100.20')).status, 200, 'another caller of the same proxy has its own count');
    } finally {
      await service.close();
    }
  });

  test('the request log names the forwarded caller behind a trusted proxy (PAYKIT_TRUST_PROXY read from the environment)', async (t) => {
    const { base, lines } = await serviceWithLog(t, { PAYKIT_TRUST_PROXY: '127.0.0.1/32' });
    assert.equal((await send(base, 'GET', '/health', { headers: { 'x-forwarded-for': '203.0.113.9' } })).status, 200);
    const logged = lines.map((line) => JSON.parse(line)).filter((entry) => entry.req);
    assert.deepEqual(
      logged.map((entry) => entry.req.remoteAddress),
      ['203.0.113.9'],
    );
  });

  for (const [name, trustProxy] of [
    ['no proxy trusted (the default)', []],
    ['a peer that is not among the trusted proxies', ['10.0.0.0/8']],
  ] as const) {
    test(`from ${name}, X-Forwarded-For is ignored`, async () => {
      const service = await startService({ network: { trustProxy: [...trustProxy] } });
      try {
        const a = await service.newClient('Guessed partner');
        // A guesser that names a new address on every request still counts as its own connection's.
        for (let i = 0; i < FAILED_AUTHENTICATIONS_PER_MINUTE; i++) {
          assert.equal(
            (await merchants(service, a, `sk_guess_${i}`, { 'x-forwarded-for': `198.51.100.${i}` })).status,
            401,
          );
        }
        assert.equal((await merchants(service, a, 'sk_guess', { 'x-forwarded-for': '192.0.2.1' })).status, 429);
      } finally {
        await service.close();
      }
    });
  }
});

describe('the counts themselves', () => {
  test('a pair waits out the rest of its minute, then may try again; an over-long id is counted by its first 100 characters', () => {
    const failures = new FailedLogins();
    const start = 1_000_000;
    for (let i = 0; i < FAILED_AUTHENTICATIONS_PER_MINUTE; i++) failures.failed('cli_a', '203.0.113.7', start);
    assert.equal(failures.wait('cli_a', '203.0.113.7', 'digest-1', 'cli_a', start + 15_000), 45);
    assert.equal(failures.wait('cli_a', '203.0.113.7', 'digest-1', 'cli_a', start + 60_000), 0);
    failures.verified('cli_a', 'digest-2', start);
    assert.equal(
      failures.wait('cli_a', '203.0.113.7', 'digest-2', 'cli_a', start + 15_000),
      0,
      'credentials that verified pass',
    );
    const long = 'x'.repeat(100);
    for (let i = 0; i < FAILED_AUTHENTICATIONS_PER_MINUTE; i++) failures.failed(`${long}${i}`, '203.0.113.8', start);
    assert.ok(failures.wait(`${long}-another`, '203.0.113.8', 'digest-3', undefined, start) > 0);
  });

  test('a limiter keeps at most its bound of keys: expired ones are swept first, then the oldest goes', () => {
    const limiter = new RateLimiter(1, 60_000, 3);
    for (const key of ['a', 'b', 'c', 'd']) limiter.take(key, 0);
    assert.deepEqual(
      ['a', 'b', 'c', 'd'].map((key) => limiter.count(key, 0)),
      [0, 1, 1, 1],
    );
    limiter.take('b', 30_000);
    limiter.take('e', 61_000);
    assert.deepEqual(
      ['b', 'c', 'd', 'e'].map((key) => limiter.count(key, 61_000)),
      [0, 0, 0, 1],
      'the expired were swept',
    );
  });
});
