/**
 * The hosted onboarding link is not a bearer URL to the applicant's draft (issue 41): it must be opened within 15
 * minutes, the first browser to open it holds it (a cookie), any other browser is refused without seeing anything, and
 * the partner can mint a new link (POST /auth/onboarding-link, or through its `refresh_url`) that keeps the answers.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { testDatabases } from '../../support/databases.ts';
import { send } from '../../support/http.ts';
import { formBody, newOnboardingLink, postStep } from '../../support/onboarding.ts';
import { validApplication } from '../../support/fixtures.ts';
import { ONBOARDING_FORM_TTL_MS, ONBOARDING_LINK_TTL_MS } from '../../../server/domain/session-lifetimes.ts';

const business = (application = validApplication()) =>
  Object.fromEntries(Object.entries(formBody(application)).filter(([key]) => key.startsWith('BusinessInfo.')));
const owner = (application = validApplication()) =>
  Object.fromEntries(Object.entries(formBody(application)).filter(([key]) => key.startsWith('OwnerInfo.')));

for (const database of testDatabases()) {
  describe(`onboarding links work in one browser, for minutes unopened (${database})`, () => {
    let service: TestService;
    before(async () => {
      service = await startService({ database });
    });
    after(() => service.close());

    /** Another browser: no cookie of the test's jar. */
    const elsewhere = (method: string, path: string, cookie = '') =>
      send(service.baseUrl, method, path, {
        headers: { cookie },
        ...(method === 'POST' ? { form: { go: 'forward' } } : {}),
      });

    test('the first browser to open the link holds it; another sees nothing of the application, whatever it sends', async () => {
      const link = await newOnboardingLink(service, { business_name: 'Private Bakery LLC' });
      const opened = await service.request('GET', link.path);
      assert.equal(opened.status, 200);
      const cookie = String(opened.headers['set-cookie']);
      assert.match(
        cookie,
        new RegExp(
          `^paykit_onboarding=[\\w-]{40,}; Path=${link.path}; Max-Age=(?:${ONBOARDING_FORM_TTL_MS / 1000 - 1}|${ONBOARDING_FORM_TTL_MS / 1000}); HttpOnly; SameSite=Lax$`,
        ),
      );
      assert.equal((await postStep(service, link.path, 'business', business())).status, 303);
      assert.equal((await postStep(service, link.path, 'owner', owner())).status, 303);

      for (const [method, path, sent] of [
        ['GET', link.path, ''],
        ['GET', `${link.path}/owner`, ''],
        ['POST', `${link.path}/bank`, ''],
        ['POST', link.path, ''],
        ['GET', link.path, 'paykit_onboarding=forged-cookie-value'],
        ['GET', link.path, cookie.split(';')[0]!.replace(/.$/, '_')],
      ] as const) {
        const answer = await elsewhere(method, path, sent);
        assert.equal(answer.status, 403, `${method} ${path} ${sent}`);
        assert.match(answer.text, /<h1>This onboarding link was opened in another browser<\/h1>/);
        for (const secret of ['Private Bakery', 'Blue Bottle', 'Jane', '1990', 'Doe', '6789'])
          assert.ok(!answer.text.includes(secret), `${secret} is not shown`);
        assert.equal(answer.headers['set-cookie'], undefined);
      }
      assert.equal(
        (await service.request('GET', `${link.path}/owner`)).status,
        200,
        'the browser that opened it carries on',
      );
      const merchant = await service.store.merchants.findByIdUnscoped(link.merchantId);
      assert.equal(merchant?.status, 'invited', 'nothing was submitted from elsewhere');
    });

    test('a link not opened within 15 minutes has expired; the refresh gives a new one that keeps the saved answers', async () => {
      const link = await newOnboardingLink(service);
      assert.equal(
        (await postStep(service, link.path, 'business', { ...business(), 'BusinessInfo.dba': 'Kept Corner' })).status,
        303,
      );
      // The merchant moves to another browser: there the old link is refused; the partner makes a new one.
      assert.equal((await elsewhere('GET', link.path)).status, 403);
      const refreshed = await service.api('POST', '/auth/onboarding-link', { json: { merchant_id: link.merchantId } });
      assert.equal(refreshed.status, 200, refreshed.text);
      assert.equal(refreshed.body.message, 'Onboarding link created: send the merchant to it.');
      assert.equal(refreshed.body.data.merchant_id, link.merchantId);
      assert.equal(refreshed.body.data.company_id, 'acme-42');
      const fresh = new URL(refreshed.body.data.onboarding_link as string).pathname;
      assert.notEqual(fresh, link.path);
      const opensWithin = Date.parse(refreshed.body.data.expires_at) - service.clock.now().getTime();
      assert.ok(opensWithin <= ONBOARDING_LINK_TTL_MS && opensWithin > ONBOARDING_LINK_TTL_MS - 10_000);

      // The old link has ended, even in the browser that held it.
      const old = await service.request('GET', link.path);
      assert.equal(old.status, 410);
      assert.match(old.text, /<h1>This onboarding link has expired<\/h1>/);
      // The new one, opened in the other browser, lands where the merchant left off with the answers kept.
      const other = await elsewhere('GET', fresh);
      assert.equal(other.status, 200);
      assert.ok(other.text.includes('Step 2 of 5'), 'at the saved step');
      const cookie = String(other.headers['set-cookie']).split(';')[0]!;
      const back = await elsewhere('GET', `${fresh}/business`, cookie);
      assert.match(back.text, /value="Kept Corner"/);

      // Unopened for 15 minutes, a link has expired.
      const late = await newOnboardingLink(service);
      service.clock.advance(ONBOARDING_LINK_TTL_MS + 1000);
      const expired = await service.request('GET', late.path);
      assert.equal(expired.status, 410);
      assert.equal(expired.headers['set-cookie'], undefined);
      const again = await service.api('POST', '/auth/onboarding-link', { json: { merchant_id: late.merchantId } });
      assert.equal(
        (await service.request('GET', new URL(again.body.data.onboarding_link as string).pathname)).status,
        200,
      );
    });

    test('with a refresh_url, a browser holding an ended link, or a link opened elsewhere, is sent there for a new one', async () => {
      const refreshUrl = 'https://partner.example/onboarding/refresh?merchant=42';
      const session = await service.api('GET', '/auth/create-session');
      const started = await service.api('POST', `/auth/onboarding/${session.body.data.sessionToken}`, {
        json: { refresh_url: refreshUrl },
      });
      assert.equal(started.status, 200, started.text);
      const path = new URL(started.body.data.onboarding_link as string).pathname;
      assert.equal((await service.request('GET', path)).status, 200);
      const away = await elsewhere('GET', path);
      assert.deepEqual([away.status, away.headers.location], [303, refreshUrl]);
      // The refresh keeps the address unless it is given another.
      const refreshed = await service.api('POST', '/auth/onboarding-link', {
        json: { merchant_id: started.body.data.merchant_id },
      });
      const ended = await service.request('GET', path);
      assert.deepEqual([ended.status, ended.headers.location], [303, refreshUrl]);
      const next = new URL(refreshed.body.data.onboarding_link as string).pathname;
      assert.equal((await service.request('GET', next)).status, 200);
      const submitted = await service.request('POST', next, { form: formBody(validApplication()) });
      assert.equal(submitted.status, 200, submitted.text);
      const used = await service.request('GET', next);
      assert.equal(used.status, 410, 'a used link says so: there is nothing to refresh');
      assert.match(used.text, /already been used/);
    });

    test('the refresh is refused for an unknown or another client’s merchant, a submitted one, and a bad refresh_url', async () => {
      const link = await newOnboardingLink(service);
      const other = await service.newClient('Other partner');
      const refresh = (json: object, auth?: { id: string; secret: string }) =>
        service.api('POST', '/auth/onboarding-link', { json, ...(auth ? { auth } : {}) });
      for (const answer of [
        await refresh({ merchant_id: 'm_unknown' }),
        await refresh({ merchant_id: link.merchantId }, { id: other.clientId, secret: other.secretKey }),
      ]) {
        assert.deepEqual([answer.status, answer.body.code], [404, 'not_found'], answer.text);
      }
      for (const refresh_url of ['partner.example/refresh', 'javascript:alert(1)', 'https://partner.example/a b']) {
        const answer = await refresh({ merchant_id: link.merchantId, refresh_url });
        assert.deepEqual([answer.status, answer.body.code], [400, 'invalid_request'], refresh_url);
        assert.match(answer.body.message, /^refresh_url must be an absolute http\(s\) URL/);
      }
      const onboarded = (await service.api('POST', '/onboarding', { json: validApplication() })).body.data.merchant_id;
      const submitted = await refresh({ merchant_id: onboarded });
      assert.deepEqual(
        [submitted.status, submitted.body.code, submitted.body.message],
        [409, 'conflict', 'This merchant has already submitted its application: there is no form left to fill in.'],
      );
    });
  });
}
