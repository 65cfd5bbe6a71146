import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { testDatabases } from '../../support/databases.ts';
import { validApplication } from '../../support/fixtures.ts';

for (const database of testDatabases()) {
  describe(`isolation between clients (${database})`, () => {
    let service: TestService;
    let intruder: { id: string; secret: string };
    let victim: { merchantKey: string; merchantId: string; customerId: string };

    before(async () => {
      service = await startService({ database });
      const created = (await service.api('POST', '/onboarding', { json: validApplication() })).body.data;
      const customer = await service.api('POST', '/customers/add', {
        json: { merchant_key: created.merchant_key, first_name: 'Vic', last_name: 'Tim', email: 'v@t.co' },
      });
      victim = {
        merchantKey: created.merchant_key,
        merchantId: created.merchant_id,
        customerId: customer.body.data.customer_id,
      };
      const other = await service.newClient('Intruder');
      intruder = { id: other.clientId, secret: other.secretKey };
      // The intruder has a merchant of its own, so "no merchants at all" is not what makes the answers equal.
      await service.api('POST', '/onboarding', {
        json: validApplication({ BusinessInfo: { business_name: 'Intruder Inc' } }),
        auth: intruder,
      });
    });
    after(() => service.close());

    /** The intruder's call with the victim's identifier must answer exactly as with an identifier that does not exist. */
    async function assertIndistinguishable(
      method: string,
      path: (id: string) => string,
      body: (key: string) => Record<string, unknown>,
      real: string,
      fake: string,
    ) {
      const withVictims = await service.api(method, path(real), { json: body(real), auth: intruder });
      const withUnknown = await service.api(method, path(fake), { json: body(fake), auth: intruder });
      assert.equal(withVictims.status, withUnknown.status, `${method} ${path(real)}`);
      assert.ok(withVictims.status >= 400 && withVictims.status < 500);
      assert.deepEqual(
        withVictims.body,
        withUnknown.body.message === undefined
          ? withUnknown.body
          : { ...withUnknown.body, message: withUnknown.body.message.replaceAll(fake, real) },
      );
    }

    test('GET /merchant lists only the caller’s merchants', async () => {
      const theirs = await service.api('GET', '/merchant', { auth: intruder });
      assert.deepEqual(
        theirs.body.data.map((m: { businessname: string }) => m.businessname),
        ['Intruder Inc'],
      );
      assert.ok(!JSON.stringify(theirs.body).includes(victim.merchantId));
    });

    test('onboarding status', () =>
      assertIndistinguishable(
        'POST',
        () => '/auth/get-onboarding-status',
        (key) => ({ merchant_key: key }),
        victim.merchantKey,
        'mk_doesnotexist',
      ));

    test('add customer', () =>
      assertIndistinguishable(
        'POST',
        () => '/customers/add',
        (key) => ({ merchant_key: key, first_name: 'I', last_name: 'N', email: 'i@n.co' }),
        victim.merchantKey,
        'mk_doesnotexist',
      ));

    test('list customers', () =>
      assertIndistinguishable(
        'GET',
        () => '/customers',
        (key) => ({ merchant_key: key }),
        victim.merchantKey,
        'mk_doesnotexist',
      ));

    test('read a customer with the victim’s key', () =>
      assertIndistinguishable(
        'GET',
        () => `/customers/${victim.customerId}`,
        (key) => ({ merchant_key: key }),
        victim.merchantKey,
        'mk_doesnotexist',
      ));

    test('read the victim’s customer through the intruder’s own merchant', async () => {
      const ownKey = (await service.api('POST', '/onboarding', { json: validApplication(), auth: intruder })).body.data
        .merchant_key;
      await assertIndistinguishable(
        'GET',
        (id) => `/customers/${id}`,
        () => ({ merchant_key: ownKey }),
        victim.customerId,
        'c_doesnotexist',
      );
    });

    test('approve the victim’s merchant', () =>
      assertIndistinguishable(
        'POST',
        () => '/approve-merchant',
        (id) => ({ merchant_id: id }),
        victim.merchantId,
        'm_doesnotexist',
      ));

    test('the victim’s data is untouched', async () => {
      const status = await service.api('POST', '/auth/get-onboarding-status', {
        json: { merchant_key: victim.merchantKey },
      });
      assert.equal(status.body.data.merchantStatus, 'pending');
      const customers = await service.api('GET', '/customers', { json: { merchant_key: victim.merchantKey } });
      assert.equal(customers.body.data.totalCount, 1);
      const events = await service.store.events.listForClient(intruder.id);
      assert.ok(
        events.every((e) => e.data.merchant_id !== victim.merchantId),
        'no event about the victim reaches the intruder',
      );
    });
  });
}
