import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startService, type TestService } from '../support/service.ts';
import { testDatabases } from '../support/databases.ts';
import { validApplication } from '../support/fixtures.ts';
import { approvedMerchant, paidSale } from '../support/payments.ts';
import { waitUntil } from '../support/wait.ts';
import { digest } from '../../server/platform/secrets.ts';
import { Housekeeping } from '../../server/services/housekeeping.ts';
import { IDEMPOTENCY_KEY_TTL_MS, IDEMPOTENCY_LEASE_MS } from '../../server/store/idempotency-keys.ts';
import { SECRET_RETENTION_MS } from '../../server/domain/event-secrets.ts';
import { KEY_SUPERSEDED_MESSAGE, KEY_UNREADABLE_MESSAGE } from '../../server/plugins/idempotency.ts';

const withKey = (key: string, json: unknown) => ({ json, headers: { 'idempotency-key': key } });

/**
 * A sealed answer: the version and base64url ciphertext, nothing else, so no field of the JSON answer (a `mk_`, `wst_`
 * or `pl_` secret, a quote, a brace) is there to read. (Looking for those prefixes in the ciphertext itself would fail
 * now and then: base64url holds every such run of letters by chance.)
 */
const isSealed = (body: string) => /^v1\.[A-Za-z0-9_-]{40,}$/.test(body);

for (const database of testDatabases()) {
  describe(`what idempotency keys and events keep at rest (${database})`, () => {
    let service: TestService;
    before(async () => {
      service = await startService({ database });
    });
    after(() => service.close());

    /** Every stored idempotency row of the test client, as the database holds it. */
    const storedKeys = () => service.store.idempotencyKeys.find.bind(service.store.idempotencyKeys);

    test('keys are kept as digests and answers sealed: a new merchant key, a session token and a pay link are not readable at rest', async () => {
      const key = `onboard-${randomUUID()}`;
      const onboarded = await service.api('POST', '/onboarding', withKey(key, validApplication()));
      assert.equal(onboarded.status, 200, onboarded.text);
      const merchantKey = onboarded.body.data.merchant_key as string;
      const row = await storedKeys()(service.client.clientId, digest(key), service.clock.now());
      assert.ok(row, 'the row is found by the digest of the key');
      assert.equal(await storedKeys()(service.client.clientId, key, service.clock.now()), undefined, 'not by the key itself');
      assert.ok(row.body && isSealed(row.body) && !row.body.includes(merchantKey), 'the answer is sealed');
      const replay = await service.api('POST', '/onboarding', withKey(key, validApplication()));
      assert.deepEqual([replay.headers['idempotent-replayed'], replay.text], ['true', onboarded.text], 'a retry opens it');

      await service.api('POST', '/approve-merchant', { json: { merchant_id: onboarded.body.data.merchant_id } });
      const sessionKey = `session-${randomUUID()}`;
      const session = await service.api('POST', '/widgets/sessions', withKey(sessionKey, { merchant_key: merchantKey }));
      const sessionRow = await storedKeys()(service.client.clientId, digest(sessionKey), service.clock.now());
      assert.ok(isSealed(sessionRow!.body!) && !sessionRow!.body!.includes(session.body.data.session_token), 'the session answer is sealed');
      const linkKey = `link-${randomUUID()}`;
      const link = await service.api('POST', '/requests', withKey(linkKey, { merchant_key: merchantKey, amount: '3.00', order_id: randomUUID() }));
      const linkRow = await storedKeys()(service.client.clientId, digest(linkKey), service.clock.now());
      assert.ok(isSealed(linkRow!.body!) && !linkRow!.body!.includes(link.body.data.pay_link), 'the pay link answer is sealed');
    });

    test('once its client secret changes, a key whose answer cannot be opened is a 422, never a second run', async () => {
      const other = await service.newClient('Rotating partner');
      const auth = { id: other.clientId, secret: other.secretKey };
      const key = randomUUID();
      const first = await service.api('POST', '/onboarding', { auth, ...withKey(key, validApplication()) });
      assert.equal(first.status, 200);
      const newSecret = `sk_${randomUUID()}`;
      await service.store.clients.updateSecret(other.clientId, digest(newSecret));
      const retried = await service.api('POST', '/onboarding', { auth: { id: other.clientId, secret: newSecret }, ...withKey(key, validApplication()) });
      assert.deepEqual([retried.status, retried.body], [422, { result: false, message: KEY_UNREADABLE_MESSAGE, code: 'idempotency_key_reused' }]);
      assert.equal((await service.api('GET', '/merchant', { auth: { id: other.clientId, secret: newSecret } })).body.data.length, 1);
    });

    test('the delivery log never shows a merchant key; housekeeping masks it in events no endpoint took, and purges day-old keys', async () => {
      const fresh = await service.newClient('No endpoint');
      const auth = { id: fresh.clientId, secret: fresh.secretKey };
      const key = randomUUID();
      const onboarded = await service.api('POST', '/onboarding', { auth, ...withKey(key, validApplication()) });
      const merchantKey = onboarded.body.data.merchant_key as string;
      const [event] = await service.store.events.listForClient(fresh.clientId);
      assert.equal(event!.data.merchant_key, merchantKey, 'kept while it waits to be delivered');
      const log = await service.api('GET', `/client/webhooks/events/${event!.id}`, { auth });
      assert.equal(log.body.data.data.merchant_key, `mk_…${merchantKey.slice(-4)}`);
      assert.ok(!log.text.includes(merchantKey));

      const housekeeping = new Housekeeping({ store: service.store, clock: service.clock });
      const offset = service.clock.offset;
      try {
        service.clock.advance(IDEMPOTENCY_KEY_TTL_MS - 60_000);
        assert.equal((await housekeeping.runOnce()).purgedKeys, 0, 'a key is kept for a day');
        assert.ok(await service.store.idempotencyKeys.find(fresh.clientId, digest(key), new Date(0)));
        service.clock.advance(SECRET_RETENTION_MS - IDEMPOTENCY_KEY_TTL_MS);
        assert.ok((await housekeeping.runOnce()).purgedKeys >= 1);
        assert.equal((await service.store.events.listForClient(fresh.clientId))[0]!.data.merchant_key, merchantKey, 'not before four days');
        service.clock.advance(120_000);
        assert.ok((await housekeeping.runOnce()).redactedEvents >= 1);
        const [masked] = await service.store.events.listForClient(fresh.clientId);
        assert.equal(masked!.data.merchant_key, `mk_…${merchantKey.slice(-4)}`);
        assert.deepEqual({ ...masked!.data, merchant_key: undefined }, { ...event!.data, merchant_key: undefined }, 'nothing else changed');
        assert.equal(await service.store.idempotencyKeys.find(fresh.clientId, digest(key), new Date(0)), undefined, 'the day-old key is gone');
      } finally {
        service.clock.restore(offset);
      }
    });
  });
}

describe('a request that outlives its lease is superseded by the retry, and rolled back (postgres)', { skip: !testDatabases().includes('postgres') && 'PostgreSQL not selected' }, () => {
  test('the first answers 409, the retry refunds once', async (t) => {
    const service = await startService({ database: 'postgres' });
    t.after(() => service.close());
    const { merchantKey } = await approvedMerchant(service);
    const saleId = await paidSale(service, merchantKey, '50.00');
    // Another transaction holds the sale's row, so the first refund waits inside its unit of work.
    let releaseLock: () => void = () => {};
    let locked: () => void = () => {};
    const lockHeld = new Promise<void>((resolve) => (locked = resolve));
    const holder = service.store.transaction(async (tx) => {
      await tx.transactions.findForUpdate((await service.store.merchants.listForClient(service.client.clientId))[0]!.id, saleId);
      locked();
      await new Promise<void>((resolve) => (releaseLock = resolve));
    });
    await lockHeld;
    const key = randomUUID();
    const body = { merchant_key: merchantKey, transaction_id: saleId, amount: '5.00' };
    const first = service.api('POST', '/order/sales-return', withKey(key, body));
    const claim = () => service.store.idempotencyKeys.find(service.client.clientId, digest(key), service.clock.now());
    const firstClaim = await waitUntil(claim, { what: 'the first request claiming the key' });
    service.clock.advance(IDEMPOTENCY_LEASE_MS + 1000);
    const retry = service.api('POST', '/order/sales-return', withKey(key, body));
    await waitUntil(async () => (await claim())?.created_at !== firstClaim.created_at, { what: 'the retry taking the key over' });
    releaseLock();
    await holder;
    const [firstAnswer, retryAnswer] = await Promise.all([first, retry]);
    assert.deepEqual([firstAnswer.status, firstAnswer.body.message], [409, KEY_SUPERSEDED_MESSAGE]);
    assert.equal(retryAnswer.status, 200, retryAnswer.text);
    const [sale] = (await service.api('GET', `/merchant/transactions/${saleId}`, { json: { merchant_key: merchantKey } })).body.data;
    assert.equal(sale.refunded_amount, '5.00', 'refunded once');
    const again = await service.api('POST', '/order/sales-return', withKey(key, body));
    assert.deepEqual([again.headers['idempotent-replayed'], again.text], ['true', retryAnswer.text]);
  });
});
