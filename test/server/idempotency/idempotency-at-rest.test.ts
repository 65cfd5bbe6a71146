import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startService, type TestService } from '../../support/service.ts';
import { TEST_DATABASE_URL, testDatabases } from '../../support/databases.ts';
import { validApplication } from '../../support/fixtures.ts';
import { approvedMerchant, paidSale } from '../../support/payments.ts';
import { waitUntil } from '../../support/wait.ts';
import { digest } from '../../../server/platform/secrets.ts';
import { Housekeeping } from '../../../server/services/housekeeping.ts';
import { IDEMPOTENCY_KEY_TTL_MS, IDEMPOTENCY_LEASE_MS } from '../../../server/store/idempotency-keys.ts';
import { SECRET_RETENTION_MS } from '../../../server/domain/event-secrets.ts';
import { KEY_UNREADABLE_MESSAGE } from '../../../server/plugins/idempotency.ts';
import { KEY_SUPERSEDED_MESSAGE } from '../../../server/store/idempotency-keys.ts';

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
      assert.equal(
        await storedKeys()(service.client.clientId, key, service.clock.now()),
        undefined,
        'not by the key itself',
      );
      assert.ok(row.body && isSealed(row.body) && !row.body.includes(merchantKey), 'the answer is sealed');
      const replay = await service.api('POST', '/onboarding', withKey(key, validApplication()));
      assert.deepEqual(
        [replay.headers['idempotent-replayed'], replay.text],
        ['true', onboarded.text],
        'a retry opens it',
      );

      await service.api('POST', '/approve-merchant', { json: { merchant_id: onboarded.body.data.merchant_id } });
      const sessionKey = `session-${randomUUID()}`;
      const session = await service.api(
        'POST',
        '/widgets/sessions',
        withKey(sessionKey, { merchant_key: merchantKey }),
      );
      const sessionRow = await storedKeys()(service.client.clientId, digest(sessionKey), service.clock.now());
      assert.ok(
        isSealed(sessionRow!.body!) && !sessionRow!.body!.includes(session.body.data.session_token),
        'the session answer is sealed',
      );
      const linkKey = `link-${randomUUID()}`;
      const link = await service.api(
        'POST',
        '/requests',
        withKey(linkKey, { merchant_key: merchantKey, amount: '3.00', order_id: randomUUID() }),
      );
      const linkRow = await storedKeys()(service.client.clientId, digest(linkKey), service.clock.now());
      assert.ok(
        isSealed(linkRow!.body!) && !linkRow!.body!.includes(link.body.data.pay_link),
        'the pay link answer is sealed',
      );
    });

    test('once its client secret changes, a key whose answer cannot be opened is a 422, never a second run', async () => {
      const other = await service.newClient('Rotating partner');
      const auth = { id: other.clientId, secret: other.secretKey };
      const key = randomUUID();
      const first = await service.api('POST', '/onboarding', { auth, ...withKey(key, validApplication()) });
      assert.equal(first.status, 200);
      const newSecret = `sk_${randomUUID()}`;
      await service.store.clients.updateSecret(other.clientId, digest(newSecret));
      const retried = await service.api('POST', '/onboarding', {
        auth: { id: other.clientId, secret: newSecret },
        ...withKey(key, validApplication()),
      });
      assert.deepEqual(
        [retried.status, retried.body],
        [422, { result: false, message: KEY_UNREADABLE_MESSAGE, code: 'idempotency_key_reused' }],
      );
      assert.equal(
        (await service.api('GET', '/merchant', { auth: { id: other.clientId, secret: newSecret } })).body.data.length,
        1,
      );
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
        assert.equal(
          (await service.store.events.listForClient(fresh.clientId))[0]!.data.merchant_key,
          merchantKey,
          'not before four days',
        );
        service.clock.advance(120_000);
        assert.ok((await housekeeping.runOnce()).redactedEvents >= 1);
        const [masked] = await service.store.events.listForClient(fresh.clientId);
        assert.equal(masked!.data.merchant_key, `mk_…${merchantKey.slice(-4)}`);
        assert.deepEqual(
          { ...masked!.data, merchant_key: undefined },
          { ...event!.data, merchant_key: undefined },
          'nothing else changed',
        );
        assert.equal(
          await service.store.idempotencyKeys.find(fresh.clientId, digest(key), new Date(0)),
          undefined,
          'the day-old key is gone',
        );
      } finally {
        service.clock.restore(offset);
      }
    });
  });
}

const postgresOnly = { skip: !testDatabases().includes('postgres') && 'PostgreSQL not selected' };

/** A connection of its own to the service's schema, to hold locks the service's requests then wait for. */
async function lockHolder(service: TestService): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${service.schema}` });
  await client.connect();
  return client;
}

/** Connections waiting for the holder's locks, and those waiting for them in turn (other tests' are not). */
const waitingBehind = async (holder: pg.Client) => {
  const { rows } =
    await holder.query(`WITH first AS (SELECT pid FROM pg_stat_activity WHERE pg_backend_pid() = ANY (pg_blocking_pids(pid)))
    SELECT (SELECT count(*) FROM first) + (SELECT count(*) FROM pg_stat_activity WHERE pg_blocking_pids(pid) && ARRAY(SELECT pid FROM first)) AS n`);
  return Number(rows[0].n);
};

describe('a request that outlives its lease (postgres)', postgresOnly, () => {
  let service: TestService;
  let holder: pg.Client;
  let merchantKey: string;
  before(async () => {
    service = await startService({ database: 'postgres' });
    holder = await lockHolder(service);
    ({ merchantKey } = await approvedMerchant(service));
  });
  after(async () => {
    await holder.end();
    await service.close();
  });
  const claimOf = (key: string) => () =>
    service.store.idempotencyKeys.find(service.client.clientId, digest(key), service.clock.now());
  const transaction = async (id: string) =>
    (await service.api('GET', `/merchant/transactions/${id}`, { json: { merchant_key: merchantKey } })).body.data[0];

  /**
   * Sends `path` with a key while the holder's lock (taken by `lock`) stops it after its claim, lets the lease run
   * out, has a retry take the key over, then lets both go: the first must answer 409 and the retry do the work once.
   */
  async function supersededByRetry(path: string, body: Record<string, string>, lock: () => Promise<unknown>) {
    await holder.query('BEGIN');
    await lock();
    const key = randomUUID();
    const first = service.api('POST', path, withKey(key, body));
    const firstClaim = await waitUntil(claimOf(key), { what: 'the first request claiming the key' });
    service.clock.advance(IDEMPOTENCY_LEASE_MS + 1000);
    const retry = service.api('POST', path, withKey(key, body));
    await waitUntil(async () => (await claimOf(key)())?.created_at !== firstClaim.created_at, {
      what: 'the retry taking the key over',
    });
    await holder.query('COMMIT');
    const [firstAnswer, retryAnswer] = await Promise.all([first, retry]);
    assert.deepEqual([firstAnswer.status, firstAnswer.body.message], [409, KEY_SUPERSEDED_MESSAGE]);
    assert.equal(retryAnswer.status, 200, retryAnswer.text);
    const again = await service.api('POST', path, withKey(key, body));
    assert.deepEqual([again.headers['idempotent-replayed'], again.text], ['true', retryAnswer.text]);
  }

  // Money writes are one statement each since issue 42; closing a sandbox batch is still a unit of work.
  test('in its unit of work (closing a batch), it is superseded by the retry and rolled back: the first answers 409, the retry settles once', async () => {
    const saleId = await paidSale(service, merchantKey, '50.00');
    const body = { merchant_key: merchantKey };
    await supersededByRetry('/sandbox/settle', body, () =>
      holder.query('SELECT id FROM transactions WHERE id = $1 FOR UPDATE', [saleId]),
    );
    assert.equal((await transaction(saleId)).settled, true);
  });

  test('inside its one statement (a void), it keeps its key: the retry waits for it and gets its answer', async () => {
    const saleId = await paidSale(service, merchantKey, '50.00');
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM transactions WHERE id = $1 FOR UPDATE', [saleId]);
    const key = randomUUID();
    const body = { merchant_key: merchantKey, transaction_id: saleId, sub_merchant_key: '' };
    const first = service.api('POST', '/order/sales-void', withKey(key, body));
    await waitUntil(async () => (await waitingBehind(holder)) === 1, {
      what: "the void's statement waiting for the sale",
    });
    service.clock.advance(IDEMPOTENCY_LEASE_MS + 1000);
    const retry = service.api('POST', '/order/sales-void', withKey(key, body));
    await waitUntil(async () => (await waitingBehind(holder)) === 2, { what: 'the retry waiting for the claim' });
    await holder.query('COMMIT');
    const [firstAnswer, retryAnswer] = await Promise.all([first, retry]);
    assert.equal(firstAnswer.status, 200, firstAnswer.text);
    assert.deepEqual([retryAnswer.headers['idempotent-replayed'], retryAnswer.text], ['true', firstAnswer.text]);
    assert.equal((await transaction(saleId)).status, 'voided');
  });

  test('before its one statement (a refund), it is superseded: that statement writes nothing, and the retry refunds once', async () => {
    const saleId = await paidSale(service, merchantKey, '50.00');
    const body = { merchant_key: merchantKey, transaction_id: saleId, amount: '5.00' };
    // The refund's read waits for the table, after the request claimed its key.
    await supersededByRetry('/order/sales-return', body, () =>
      holder.query('LOCK TABLE transactions IN ACCESS EXCLUSIVE MODE'),
    );
    assert.equal((await transaction(saleId)).refunded_amount, '5.00', 'refunded once');
  });

  test('inside its one statement (a refund), it keeps its key: the retry waits for it and gets its answer', async () => {
    const saleId = await paidSale(service, merchantKey, '50.00');
    // The refund's statement waits for the sale's row, holding its claim's row.
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM transactions WHERE id = $1 FOR UPDATE', [saleId]);
    const key = randomUUID();
    const body = { merchant_key: merchantKey, transaction_id: saleId, amount: '5.00' };
    const first = service.api('POST', '/order/sales-return', withKey(key, body));
    await waitUntil(async () => (await waitingBehind(holder)) === 1, {
      what: "the refund's statement waiting for the sale",
    });
    service.clock.advance(IDEMPOTENCY_LEASE_MS + 1000);
    const retry = service.api('POST', '/order/sales-return', withKey(key, body));
    await waitUntil(async () => (await waitingBehind(holder)) === 2, { what: 'the retry waiting for the claim' });
    await holder.query('COMMIT');
    const [firstAnswer, retryAnswer] = await Promise.all([first, retry]);
    assert.equal(firstAnswer.status, 200, firstAnswer.text);
    assert.deepEqual([retryAnswer.headers['idempotent-replayed'], retryAnswer.text], ['true', firstAnswer.text]);
    assert.equal((await transaction(saleId)).refunded_amount, '5.00', 'refunded once');
  });
});
