/**
 * Credentials a hostile caller crafts (issue 41): control bytes inside Basic credentials are a 401 on every partner
 * endpoint and on both databases (PostgreSQL cannot even compare a NUL, which answered 500), and respelling one's own
 * valid header cannot push another client out of the "recently verified" exemption of the failed-login throttle.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { testDatabases } from '../../support/databases.ts';
import { declaredOperations, dereference } from '../../support/openapi.ts';
import { credentialsDigest, parseBasic } from '../../../server/plugins/basic-auth.ts';
import { KnownCredentials } from '../../../server/plugins/known-credentials.ts';
import { FAILED_AUTHENTICATIONS_PER_MINUTE } from '../../../server/plugins/failed-logins.ts';

const basic = (text: string) => `Basic ${Buffer.from(text, 'latin1').toString('base64')}`;

for (const database of testDatabases()) {
  describe(`control bytes in credentials (${database})`, () => {
    let service: TestService;
    before(async () => {
      service = await startService({ database });
    });
    after(() => service.close());

    test('NUL and other control bytes in the client id or secret: 401 in the envelope on every partner endpoint, never 500', async () => {
      const document = await dereference((await service.request('GET', '/api/v1/openapi.json')).body);
      const partnerCalls = declaredOperations(document).filter(({ operation }) =>
        (operation.security ?? document.security).some((s: object) => 'basicAuth' in s),
      );
      assert.ok(partnerCalls.length >= 30, `${partnerCalls.length} partner operations`);
      const { clientId, secretKey } = service.client;
      const headers = [
        'Basic ADp4', // "\0:x", the audit's
        basic(`\u0000${clientId}:${secretKey}`),
        basic(`${clientId}\u0001:${secretKey}`),
        basic(`${clientId}:${secretKey}\u0000`),
        basic(`${clientId}:\u007f${secretKey}`),
        basic(`cli_\u001b[31m:x`),
      ];
      for (const { method, path } of partnerCalls) {
        const url = `/api/v1${path.replace(/\{[^}]+\}/g, 'x1')}`;
        for (const authorization of headers) {
          const answer = await service.request(method, url, {
            headers: { authorization },
            ...(method === 'GET' ? {} : { json: {} }),
          });
          assert.equal(answer.status, 401, `${method} ${url} with ${authorization}: ${answer.text}`);
          assert.deepEqual([answer.body.result, answer.body.code], [false, 'authentication_failed']);
          assert.match(answer.body.message, /^Malformed credentials/);
          assert.match(String(answer.headers['www-authenticate']), /^Basic /);
        }
      }
      // The client's own credentials, after all that, still work: malformed ones were not counted as guesses at it.
      assert.equal((await service.api('GET', '/merchant')).status, 200);
    });
  });
}

describe('the "recently verified" exemption cannot be flushed by respelling a header', () => {
  let service: TestService;
  before(async () => {
    service = await startService();
  });
  after(() => service.close());

  test('every spelling of one pair of credentials parses to the same digest', () => {
    const b64 = Buffer.from('cli_a:sk_b').toString('base64');
    const spellings = [`Basic ${b64}`, `basic ${b64}`, `BASIC ${b64}`, `bAsIc \t  ${b64}`, `Basic ${b64}  `];
    const digests = new Set(spellings.map((header) => credentialsDigest(parseBasic(header)!)));
    assert.equal(digests.size, 1);
  });

  test('the exemption holds one entry per verified identity: any number of digests of one never evicts another', () => {
    const known = new KnownCredentials(60_000, 2);
    known.remember('cli_victim', 'victim-digest', 0);
    for (let i = 0; i < 10_100; i++) known.remember('cli_attacker', `spelling-${i}`, 0);
    assert.equal(known.has('cli_victim', 'victim-digest', 1), true);
    assert.equal(known.has('cli_victim', 'another-digest', 1), false, 'only the digest that verified');
    assert.equal(known.has('cli_attacker', 'spelling-10099', 1), true);
  });

  test('a client respelling its own header hundreds of times, then 60 guesses at another: the other still gets in', async () => {
    const victim = await service.newClient('Victim partner');
    const attacker = await service.newClient('Neighbour with credentials');
    const merchants = (authorization: string) =>
      service.request('GET', '/api/v1/merchant', { headers: { authorization } });
    assert.equal((await merchants(basic(`${victim.clientId}:${victim.secretKey}`))).status, 200);
    const b64 = Buffer.from(`${attacker.clientId}:${attacker.secretKey}`).toString('base64');
    for (let i = 0; i < 300; i++) {
      const word = [...'basic'].map((c, j) => ((i >> j) & 1 ? c.toUpperCase() : c)).join('');
      const answer = await merchants(`${word}${' '.repeat(1 + (i >> 5))}${b64}`);
      assert.equal(answer.status, 200, 'every spelling of valid credentials is still taken');
    }
    for (let i = 0; i < FAILED_AUTHENTICATIONS_PER_MINUTE; i++) {
      assert.equal((await merchants(basic(`${victim.clientId}:sk_guess_${i}`))).status, 401);
    }
    assert.equal((await merchants(basic(`${victim.clientId}:sk_guess`))).status, 429, 'the guesser is held');
    assert.equal((await merchants(basic(`${victim.clientId}:${victim.secretKey}`))).status, 200, 'the victim is not');
  });
});
