import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { validApplication } from '../../support/fixtures.ts';
import { CROSS_SITE_MESSAGE } from '../../../server/plugins/basic-auth.ts';
import { FAILED_AUTHENTICATIONS_PER_MINUTE } from '../../../server/plugins/failed-logins.ts';
import { CLIENTS_PER_ADDRESS_PER_HOUR } from '../../../server/routes/pages/portal.ts';

describe('browsers of other sites, and guessing, get nowhere', () => {
  let service: TestService;
  before(async () => {
    service = await startService();
  });
  after(() => service.close());

  test('the partner API refuses another site’s page, form bodies included, before looking at credentials', async () => {
    const merchants = async () => (await service.api('GET', '/merchant')).body.data.length as number;
    const before = await merchants();
    const browsers: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'null' },
    ];
    for (const headers of browsers) {
      const answer = await service.api('POST', '/onboarding', { json: validApplication(), headers });
      assert.deepEqual(
        [answer.status, answer.body, answer.headers['www-authenticate']],
        [403, { result: false, message: CROSS_SITE_MESSAGE, code: 'forbidden' }, undefined],
        JSON.stringify(headers),
      );
      const form = await service.api('POST', '/customers/add', {
        form: { merchant_key: 'mk_x', first_name: 'A', last_name: 'B' },
        headers,
        auth: null,
      });
      assert.equal(form.status, 403, 'no Basic challenge either, so no browser login prompt');
    }
    assert.equal(await merchants(), before);
    // Our own pages (the API reference) and servers (no Origin) are fine.
    const own = await service.api('GET', '/merchant', {
      headers: { origin: service.baseUrl, 'sec-fetch-site': 'same-origin' },
    });
    assert.equal(own.status, 200);
  });

  test('the portal makes credentials only from its own page, and a bounded number an hour per address', async () => {
    const crossSite = await service.request('POST', '/portal/credentials', {
      form: { name: 'Forged' },
      headers: { origin: 'https://evil.example' },
    });
    assert.equal(crossSite.status, 403);
    assert.match(crossSite.text, /Credentials are made from this page only\./);
    assert.ok(!crossSite.text.includes('sk_'), 'no secret was made');
    for (let i = 0; i < CLIENTS_PER_ADDRESS_PER_HOUR; i++) {
      const made = await service.request('POST', '/portal/credentials', {
        form: { name: `Partner ${i}` },
        headers: { origin: service.baseUrl },
      });
      assert.equal(made.status, 200);
    }
    const tooMany = await service.request('POST', '/portal/credentials', { form: { name: 'One more' } });
    assert.equal(tooMany.status, 429);
    assert.match(tooMany.text, /made 10 sandbox clients this hour/);
    assert.ok(Number(tooMany.headers['retry-after']) > 0);
  });

  test(`after ${FAILED_AUTHENTICATIONS_PER_MINUTE} wrong secrets a minute for a client id, its guesser waits, even with the right one`, async () => {
    // A client whose credentials this process has never verified: its right secret is then a guess like the others.
    const target = await service.newClient('Guessed partner');
    const guess = (secret: string) => service.api('GET', '/merchant', { auth: { id: target.clientId, secret } });
    for (let i = 0; i < FAILED_AUTHENTICATIONS_PER_MINUTE; i++)
      assert.equal((await guess(`sk_guess_${i}`)).status, 401);
    const blocked = await guess(target.secretKey);
    assert.equal(blocked.status, 429);
    assert.match(
      blocked.body.message,
      /^Too many failed authentications from your address: try again in \d+ seconds\.$/,
    );
    assert.ok(Number(blocked.headers['retry-after']) >= 1);
  });
});
