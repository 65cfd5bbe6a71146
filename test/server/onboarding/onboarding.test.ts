import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ONBOARDING_LINK_TTL_MS } from '../../../server/domain/session-lifetimes.ts';
import { startService, type TestService } from '../../support/service.ts';
import { testDatabases } from '../../support/databases.ts';
import { validApplication } from '../../support/fixtures.ts';

const ONBOARDING_EVENT_FIELDS = ['business_name', 'email', 'merchant_id', 'merchant_key', 'public_key'];
const APPROVAL_EVENT_FIELDS = ['business_name', 'company_id', 'email', 'merchant_id'];

for (const database of testDatabases()) {
  describe(`onboarding (${database})`, () => {
    let service: TestService;
    before(async () => {
      service = await startService({ database });
    });
    after(() => service.close());

    test('POST /onboarding onboards a pending merchant and writes merchant.onboarding', async () => {
      const answer = await service.api('POST', '/onboarding', { json: validApplication() });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.body.result, true);
      const data = answer.body.data;
      assert.equal(data.businessname, 'Blue Bottle Cafe');
      assert.equal(data.email, 'owner@blue-bottle.example');
      assert.match(data.merchant_key, /^mk_[\w-]{43}$/);
      assert.match(data.public_key, /^pk_/);
      assert.match(data.merchant_id, /^m_[0-9a-f-]{36}$/);
      assert.notEqual(data.merchant_key, data.public_key);

      const status = await service.api('POST', '/auth/get-onboarding-status', {
        json: { merchant_key: data.merchant_key },
      });
      assert.deepEqual(status.body, {
        result: true,
        message: 'Onboarding status retrieved.',
        data: { merchantStatus: 'pending' },
      });

      const events = await service.store.events.listForClient(service.client.clientId);
      const event = events.find(
        (e) => e.event_type === 'merchant.onboarding' && e.data.merchant_id === data.merchant_id,
      );
      assert.ok(event, 'merchant.onboarding is in the outbox');
      assert.deepEqual(Object.keys(event.data).sort(), ONBOARDING_EVENT_FIELDS);
      assert.deepEqual(event.data, {
        merchant_key: data.merchant_key,
        merchant_id: data.merchant_id,
        business_name: 'Blue Bottle Cafe',
        email: 'owner@blue-bottle.example',
        public_key: data.public_key,
      });
    });

    test('the stored application keeps no SSN and no full account number', async () => {
      const answer = await service.api('POST', '/onboarding', {
        json: validApplication({ OwnerInfo: { ssn: '219-09-9999' }, BankingInfo: { account_number: '9876543210123' } }),
      });
      const merchant = await service.store.merchants.findByIdUnscoped(answer.body.data.merchant_id);
      assert.ok(merchant?.application);
      assert.ok(!merchant.application.includes('219-09-9999') && !merchant.application.includes('219099999'));
      assert.ok(!merchant.application.includes('9876543210123'));
      const stored = JSON.parse(merchant.application);
      assert.equal(stored.OwnerInfo.ssn_last4, '9999');
      assert.equal(stored.BankingInfo.account_last4, '0123');
      assert.notEqual(merchant.merchant_key_hash, answer.body.data.merchant_key, 'only a digest of the key is kept');
    });

    test('an invalid application is refused with every problem named, and nothing is created', async () => {
      const before = (await service.api('GET', '/merchant')).body.data.length;
      const answer = await service.api('POST', '/onboarding', {
        json: validApplication({
          BankingInfo: { routing_number: '123456789' },
          BusinessInfo: { business_country: 'United States' },
        }),
      });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.result, false);
      assert.match(
        answer.body.message,
        /^The application is incomplete or invalid: BankingInfo\.routing_number must be a nine-digit ABA routing number/,
      );
      assert.match(answer.body.message, /BusinessInfo\.business_country must be a two-letter country code/);
      assert.deepEqual(
        answer.body.data.errors.map((e: { field: string }) => e.field),
        ['BankingInfo.routing_number', 'BusinessInfo.business_country'],
      );
      assert.equal((await service.api('GET', '/merchant')).body.data.length, before);
    });

    test('a missing group or field is a 400 that names every problem at once', async () => {
      const { OwnerInfo: _, ...withoutOwner } = validApplication();
      withoutOwner.BusinessInfo.ein = '12';
      const missingGroup = await service.api('POST', '/onboarding', { json: withoutOwner });
      assert.equal(missingGroup.status, 400);
      assert.deepEqual(
        missingGroup.body.data.errors.map((e: { field: string }) => e.field),
        [
          'BusinessInfo.ein',
          'OwnerInfo.date_of_birth',
          'OwnerInfo.email',
          'OwnerInfo.first_name',
          'OwnerInfo.last_name',
          'OwnerInfo.ssn',
        ],
      );
      assert.match(
        missingGroup.body.message,
        /^The application is incomplete or invalid: BusinessInfo\.ein must be 9 digits.*; OwnerInfo\.date_of_birth is required \(Date of birth\);/,
      );
      const application = validApplication();
      delete application.BusinessInfo.ein;
      const missingField = await service.api('POST', '/onboarding', { json: application });
      assert.equal(
        missingField.body.message,
        'The application is incomplete or invalid: BusinessInfo.ein is required (EIN).',
      );
      const nothing = await service.api('POST', '/onboarding', {
        raw: '',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(nothing.status, 400);
      assert.equal(nothing.body.data.errors.length, 16, 'an empty body names every required field');
    });

    test('enumerations in any case and common spellings are accepted and kept as one value; the hosted start takes no body at all', async () => {
      const spelled = validApplication({
        BusinessInfo: { ownershiptype: 'LLC', business_industry: 'Retail' },
        ProcessingInfo: { processing_environment: 'E-commerce' },
      });
      const answer = await service.api('POST', '/onboarding', { json: spelled });
      assert.equal(answer.status, 200, answer.text);
      const stored = JSON.parse(
        (await service.store.merchants.findByIdUnscoped(answer.body.data.merchant_id))!.application!,
      );
      assert.deepEqual(
        [
          stored.BusinessInfo.ownershiptype,
          stored.BusinessInfo.business_industry,
          stored.ProcessingInfo.processing_environment,
        ],
        ['llc', 'retail', 'ecommerce'],
      );
      const unknownChoice = await service.api('POST', '/onboarding', {
        json: validApplication({ BusinessInfo: { ownershiptype: 'Trust' } }),
      });
      assert.match(
        unknownChoice.body.message,
        /BusinessInfo\.ownershiptype must be one of: sole_proprietorship, partnership, llc/,
      );
      for (const options of [{}, { raw: '', headers: { 'content-type': 'application/json' } }]) {
        const session = (await service.api('GET', '/auth/create-session')).body.data.sessionToken;
        const started = await service.api('POST', `/auth/onboarding/${session}`, options);
        assert.equal(started.status, 200, `every field is optional, so no body is fine: ${started.text}`);
      }
      // JSON types are kept, not coerced: a number where the interface says text would lose a zip's leading zeros.
      const wrongType = await service.api('POST', '/onboarding', {
        json: validApplication({ OwnerInfo: { zip: 94105 as unknown as string } }),
      });
      assert.equal(wrongType.status, 400);
      assert.equal(wrongType.body.message, 'Invalid request: OwnerInfo.zip must be text.');
    });

    test('GET /merchant lists the merchants with the interface fields', async () => {
      const created = await service.api('POST', '/onboarding', {
        json: validApplication({ BusinessInfo: { business_name: 'Listed Ltd' } }),
      });
      const list = await service.api('GET', '/merchant');
      assert.equal(list.status, 200);
      assert.equal(list.body.message, 'Merchants retrieved.');
      const item = list.body.data.find((m: { merchant_id: string }) => m.merchant_id === created.body.data.merchant_id);
      assert.deepEqual(Object.keys(item).sort(), [
        'businessname',
        'email',
        'first_name',
        'join_date',
        'last_name',
        'merchant_id',
        'phonenumber',
        'public_data',
        'website',
      ]);
      assert.equal(item.businessname, 'Listed Ltd');
      assert.equal(item.first_name, 'Jane');
      assert.equal(item.last_name, 'Doe');
      assert.equal(item.phonenumber, '+14155550100');
      assert.equal(item.website, 'https://blue-bottle.example');
      assert.deepEqual(item.public_data, { public_key: created.body.data.public_key });
      assert.match(item.join_date, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.doesNotMatch(JSON.stringify(list.body), /(?<![\w-])mk_[\w-]{40,}/, 'merchant keys are never listed');
      const etag = String(list.headers.etag);
      assert.match(etag, /^W\/"[\w-]{27}"$/, 'the interface lists ETag among the headers');
      const unchanged = await service.api('GET', '/merchant', { headers: { 'if-none-match': etag } });
      assert.deepEqual([unchanged.status, unchanged.text], [304, '']);
      await service.api('POST', '/onboarding', { json: validApplication() });
      const changed = await service.api('GET', '/merchant', { headers: { 'if-none-match': etag } });
      assert.equal(changed.status, 200, 'a new merchant changes the ETag');
      assert.notEqual(changed.headers.etag, etag);
    });

    test('sandbox approval moves pending to completed once, with merchant.approval', async () => {
      const created = (await service.api('POST', '/onboarding', { json: validApplication() })).body.data;
      const approved = await service.api('POST', '/approve-merchant', { json: { merchant_id: created.merchant_id } });
      assert.equal(approved.status, 200);
      assert.deepEqual(approved.body, {
        status: true,
        message: 'Merchant approved; merchant.approval dispatch started.',
      });
      const status = await service.api('POST', '/auth/get-onboarding-status', {
        json: { merchant_key: created.merchant_key },
      });
      assert.equal(status.body.data.merchantStatus, 'completed');
      const events = await service.store.events.listForClient(service.client.clientId);
      const approval = events.find(
        (e) => e.event_type === 'merchant.approval' && e.data.merchant_id === created.merchant_id,
      );
      assert.ok(approval);
      assert.deepEqual(Object.keys(approval.data).sort(), APPROVAL_EVENT_FIELDS);
      assert.deepEqual(approval.data, {
        merchant_id: created.merchant_id,
        business_name: 'Blue Bottle Cafe',
        email: 'owner@blue-bottle.example',
        company_id: '',
      });

      const again = await service.api('POST', '/approve-merchant', { json: { merchant_id: created.merchant_id } });
      assert.equal(again.status, 409);
      assert.deepEqual(again.body, {
        result: false,
        status: false,
        message: `Merchant ${created.merchant_id} is already approved.`,
        code: 'conflict',
      });
      const approvals = (await service.store.events.listForClient(service.client.clientId)).filter(
        (e) => e.event_type === 'merchant.approval' && e.data.merchant_id === created.merchant_id,
      );
      assert.equal(approvals.length, 1);
    });

    test('approval refuses an unknown id, a merchant key, and a merchant that has not submitted', async () => {
      const unknown = await service.api('POST', '/approve-merchant', { json: { merchant_id: 'm_nope' } });
      assert.equal(unknown.status, 404);
      assert.equal(
        unknown.body.message,
        'No merchant m_nope among yours: send the merchant_id (m_…), not the merchant key.',
      );
      const missing = await service.api('POST', '/approve-merchant', { json: {} });
      assert.deepEqual(missing.body, {
        result: false,
        status: false,
        message: 'Invalid request: merchant_id is required.',
        code: 'invalid_request',
      });
      const session = (await service.api('GET', '/auth/create-session')).body.data.sessionToken;
      const invited = (await service.api('POST', `/auth/onboarding/${session}`, { json: {} })).body.data;
      const early = await service.api('POST', '/approve-merchant', { json: { merchant_id: invited.merchant_id } });
      assert.equal(early.status, 409);
      assert.match(early.body.message, /has not submitted its onboarding form yet/);
    });

    test('the hosted flow: session, prefilled merchant, a link to open within minutes', async () => {
      const session = await service.api('GET', '/auth/create-session');
      assert.equal(session.status, 200);
      assert.match(session.body.data.sessionToken, /^ost_/);
      assert.equal(session.body.data.public_key, undefined);

      const withKey = await service.api('GET', '/auth/create-session?is_publickey=true');
      assert.equal(withKey.body.data.public_key, service.client.publicKey);

      const token = session.body.data.sessionToken;
      const started = await service.api('POST', `/auth/onboarding/${token}`, {
        json: {
          company_id: 'acme-42',
          BusinessInfo: { business_name: 'Acme Bikes', business_email: 'HI@acme.example', business_country: 'US' },
        },
      });
      assert.equal(started.status, 200, started.text);
      assert.equal(started.body.message, 'Onboarding link created: send it to the merchant.');
      const { merchant_id, company_id, onboarding_link, expires_at } = started.body.data;
      assert.match(merchant_id, /^m_/);
      assert.equal(company_id, 'acme-42');
      assert.ok(onboarding_link.startsWith(`${service.baseUrl}/onboard/obl_`), onboarding_link);
      const opensWithin = new Date(expires_at).getTime() - service.clock.now().getTime();
      assert.ok(
        opensWithin <= ONBOARDING_LINK_TTL_MS && opensWithin > ONBOARDING_LINK_TTL_MS - 10_000,
        `to be opened within 15 minutes, not ${opensWithin} ms`,
      );

      const listed = (await service.api('GET', '/merchant')).body.data.find(
        (m: { merchant_id: string }) => m.merchant_id === merchant_id,
      );
      assert.equal(listed.businessname, 'Acme Bikes');
      assert.equal(listed.email, 'hi@acme.example');

      const reused = await service.api('POST', `/auth/onboarding/${token}`, { json: {} });
      assert.equal(reused.status, 404);
      assert.equal(
        reused.body.message,
        'The session token is unknown, expired or already used: get a new one from GET /auth/create-session.',
      );
    });

    test('a session token expires after 30 minutes and belongs to its client', async () => {
      const token = (await service.api('GET', '/auth/create-session')).body.data.sessionToken;
      const other = await service.newClient('Other partner');
      const stolen = await service.api('POST', `/auth/onboarding/${token}`, {
        json: {},
        auth: { id: other.clientId, secret: other.secretKey },
      });
      assert.equal(stolen.status, 404);
      service.clock.advance(31 * 60 * 1000);
      const late = await service.api('POST', `/auth/onboarding/${token}`, { json: {} });
      assert.equal(late.status, 404);
    });

    test('a prefill with a bad field is refused and creates nothing', async () => {
      const token = (await service.api('GET', '/auth/create-session')).body.data.sessionToken;
      const before = (await service.api('GET', '/merchant')).body.data.length;
      const answer = await service.api('POST', `/auth/onboarding/${token}`, {
        json: { BusinessInfo: { business_email: 'not-an-email' } },
      });
      assert.equal(answer.status, 400);
      assert.match(answer.body.message, /BusinessInfo\.business_email must be an e-mail address/);
      assert.equal((await service.api('GET', '/merchant')).body.data.length, before);
      const retry = await service.api('POST', `/auth/onboarding/${token}`, { json: {} });
      assert.equal(retry.status, 200, 'a refused prefill does not use the session up');
    });

    test('get-onboarding-status refuses an unknown key', async () => {
      const answer = await service.api('POST', '/auth/get-onboarding-status', { json: { merchant_key: 'mk_unknown' } });
      assert.equal(answer.status, 404);
      assert.deepEqual(answer.body, {
        result: false,
        message: 'merchant_key does not match any of your merchants: check the key.',
        code: 'not_found',
      });
    });
  });
}

describe('production', () => {
  let service: TestService;
  before(async () => {
    service = await startService({ environment: 'production' });
  });
  after(() => service.close());

  test('refuses the sandbox-only approval with result: false', async () => {
    const created = (await service.api('POST', '/onboarding', { json: validApplication() })).body.data;
    const answer = await service.api('POST', '/approve-merchant', { json: { merchant_id: created.merchant_id } });
    assert.equal(answer.status, 403);
    assert.deepEqual(answer.body, {
      result: false,
      status: false,
      message: 'This call exists in the sandbox only.',
      code: 'forbidden',
    });
    const status = await service.api('POST', '/auth/get-onboarding-status', {
      json: { merchant_key: created.merchant_key },
    });
    assert.equal(status.body.data.merchantStatus, 'pending');
  });
});
