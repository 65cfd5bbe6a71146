import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app.ts';
import { Clock } from '../../../server/platform/clock.ts';
import { readConfig } from '../../../server/platform/config.ts';
import { requireClient } from '../../../server/plugins/basic-auth.ts';
import { canonicalJson, honourIdempotencyKeys } from '../../../server/plugins/idempotency.ts';
import { createClient } from '../../../server/services/clients.ts';
import { IDEMPOTENCY_KEY_TTL_MS, IDEMPOTENCY_LEASE_MS } from '../../../server/store/idempotency-keys.ts';
import type { Store } from '../../../server/store/store.ts';
import { startService, type TestService } from '../../support/service.ts';
import { openTestStore, testDatabases } from '../../support/databases.ts';
import { validApplication } from '../../support/fixtures.ts';
import { approvedMerchant, nextOrderId, paidSale } from '../../support/payments.ts';
import { send, type Answer, type SendOptions } from '../../support/http.ts';
import { digest } from '../../../server/platform/secrets.ts';

const REUSED = {
  result: false,
  message: 'This Idempotency-Key was already used with a different request: use a new key for a new request.',
  code: 'idempotency_key_reused',
};
const IN_PROGRESS = {
  result: false,
  message: 'A request with this Idempotency-Key is still being processed: retry in a moment.',
  code: 'conflict',
};
const INVALID = {
  result: false,
  message: 'Idempotency-Key must be 1 to 255 printable characters.',
  code: 'invalid_request',
};
const HOUR = 60 * 60 * 1000;

const withKey = (key: string, options: SendOptions = {}): SendOptions => ({
  ...options,
  headers: { ...options.headers, 'idempotency-key': key },
});

test('canonical JSON sorts keys at every depth and keeps array order', () => {
  assert.equal(
    canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } }),
    '{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}',
  );
  assert.equal(canonicalJson({ b: 'x', a: 'y' }), canonicalJson({ a: 'y', b: 'x' }));
  assert.equal(canonicalJson('text'), '"text"');
});

for (const database of testDatabases()) {
  describe(`idempotency keys over HTTP (${database})`, () => {
    let service: TestService;
    let merchantKey: string;
    before(async () => {
      service = await startService({ database });
      merchantKey = (await service.api('POST', '/onboarding', { json: validApplication() })).body.data.merchant_key;
    });
    after(() => service.close());

    const customer = (fields: Record<string, unknown> = {}) => ({
      merchant_key: merchantKey,
      first_name: 'Ann',
      last_name: 'Lee',
      email: 'ann@example.com',
      ...fields,
    });
    const add = (key: string | undefined, json: unknown = customer(), options: SendOptions = {}) =>
      service.api(
        'POST',
        '/customers/add',
        key === undefined ? { json, ...options } : withKey(key, { json, ...options }),
      );
    const count = async () =>
      (await service.api('GET', '/customers', { json: { merchant_key: merchantKey } })).body.data.totalCount as number;

    test('a retry with the same key and body gets the first answer and creates nothing twice', async () => {
      const before = await count();
      const key = randomUUID();
      const first = await add(key);
      assert.equal(first.status, 200, first.text);
      assert.equal(first.headers['idempotent-replayed'], undefined);
      const again = await add(key);
      assert.equal(again.status, 200);
      assert.equal(again.text, first.text);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.match(String(again.headers['content-type']), /^application\/json/);
      // The same fields in another order are the same request.
      const reordered = await add(key, Object.fromEntries(Object.entries(customer()).reverse()));
      assert.equal(reordered.text, first.text);
      assert.equal(reordered.headers['idempotent-replayed'], 'true');
      assert.equal(await count(), before + 1);
    });

    test('a 4xx answer the handler gave is replayed too', async () => {
      const before = await count();
      const key = randomUUID();
      const unknownMerchant = customer({ merchant_key: 'mk_nope' });
      const first = await add(key, unknownMerchant);
      assert.equal(first.status, 404);
      const again = await add(key, unknownMerchant);
      assert.equal(again.status, 404);
      assert.equal(again.text, first.text);
      assert.equal(again.headers['idempotent-replayed'], 'true');

      const noContactKey = randomUUID();
      const noContact = customer({ email: undefined });
      const refused = await add(noContactKey, noContact);
      assert.equal(refused.status, 400);
      const replayed = await add(noContactKey, noContact);
      assert.deepEqual(
        [replayed.status, replayed.text, replayed.headers['idempotent-replayed']],
        [400, refused.text, 'true'],
      );
      assert.equal(await count(), before);
    });

    test('a body refused by validation is not remembered: the key stays free', async () => {
      const key = randomUUID();
      const invalid = await add(key, customer({ first_name: '' }));
      assert.equal(invalid.status, 400);
      const valid = await add(key);
      assert.equal(valid.status, 200, valid.text);
      assert.equal(valid.headers['idempotent-replayed'], undefined);
    });

    test('the same key with another body, path or query is refused with 422', async () => {
      const key = randomUUID();
      const first = await add(key);
      assert.equal(first.status, 200);
      const before = await count();
      const otherBody = await add(key, customer({ first_name: 'Bob' }));
      assert.equal(otherBody.status, 422);
      assert.deepEqual(otherBody.body, REUSED);
      const otherQuery = await service.api('POST', '/customers/add?x=1', withKey(key, { json: customer() }));
      assert.deepEqual([otherQuery.status, otherQuery.body], [422, REUSED]);
      const otherPath = await service.api('POST', '/onboarding', withKey(key, { json: validApplication() }));
      assert.deepEqual([otherPath.status, otherPath.body], [422, REUSED]);
      assert.equal(await count(), before);
    });

    test('keys are per client: two clients may use the same key', async () => {
      const other = await service.newClient('Other partner');
      const auth = { id: other.clientId, secret: other.secretKey };
      const otherMerchant = (await service.api('POST', '/onboarding', { auth, json: validApplication() })).body.data
        .merchant_key;
      const key = randomUUID();
      const mine = await add(key);
      const theirs = await service.api(
        'POST',
        '/customers/add',
        withKey(key, { auth, json: customer({ merchant_key: otherMerchant }) }),
      );
      assert.equal(mine.status, 200);
      assert.equal(theirs.status, 200, theirs.text);
      assert.equal(theirs.headers['idempotent-replayed'], undefined);
      assert.notEqual(theirs.body.data.customer_id, mine.body.data.customer_id);
      const theirsAgain = await service.api(
        'POST',
        '/customers/add',
        withKey(key, { auth, json: customer({ merchant_key: otherMerchant }) }),
      );
      assert.equal(theirsAgain.text, theirs.text);
      assert.equal(theirsAgain.headers['idempotent-replayed'], 'true');
    });

    test('a malformed key is a 400 and runs nothing', async () => {
      const before = await count();
      for (const key of ['', 'x'.repeat(256), 'caf\u00e9', 'a\tb']) {
        const answer = await add(key);
        assert.equal(answer.status, 400, JSON.stringify(key));
        assert.deepEqual(answer.body, INVALID);
      }
      const longest = await add('k'.repeat(255));
      assert.equal(longest.status, 200);
      const printable = await add(` !~${randomUUID()}`);
      assert.equal(printable.status, 200);
      assert.equal(await count(), before + 2);
    });

    test('without the header nothing changes, and other methods ignore it', async () => {
      const before = await count();
      const first = await add(undefined);
      const second = await add(undefined);
      assert.equal(first.status, 200);
      assert.equal(second.status, 200);
      assert.equal(second.headers['idempotent-replayed'], undefined);
      assert.notEqual(first.body.data.customer_id, second.body.data.customer_id);
      const list = await service.api('GET', '/customers', withKey('', { json: { merchant_key: merchantKey } }));
      assert.equal(list.status, 200);
      assert.equal(await count(), before + 2);
    });

    test('ten identical requests at once: one runs, the others wait their turn or replay it', async () => {
      const before = await count();
      const key = randomUUID();
      const answers = await Promise.all(Array.from({ length: 10 }, () => add(key)));
      assert.equal(await count(), before + 1);
      const ok = answers.filter((a) => a.status === 200);
      assert.ok(ok.length >= 1);
      for (const answer of ok) assert.equal(answer.text, ok[0]!.text);
      for (const answer of answers.filter((a) => a.status !== 200)) {
        assert.equal(answer.status, 409, answer.text);
        assert.deepEqual(answer.body, IN_PROGRESS);
      }
      assert.equal(answers.filter((a) => a.status === 200 && a.headers['idempotent-replayed'] === undefined).length, 1);
    });

    // Last: it moves the service clock forward a day.
    test('keys are kept 24 hours by the service clock; an older key counts as new', async () => {
      const key = randomUUID();
      const first = await add(key);
      service.clock.advance(23 * HOUR);
      const withinDay = await add(key);
      assert.equal(withinDay.headers['idempotent-replayed'], 'true');
      assert.equal(withinDay.text, first.text);
      service.clock.advance(HOUR + 1000);
      const before = await count();
      const nextDay = await add(key);
      assert.equal(nextDay.status, 200);
      assert.equal(nextDay.headers['idempotent-replayed'], undefined);
      assert.notEqual(nextDay.body.data.customer_id, first.body.data.customer_id);
      assert.equal(await count(), before + 1);
      // The replaced key holds the new answer, and a different body may now reuse an expired key.
      assert.equal((await add(key)).text, nextDay.text);
      service.clock.advance(IDEMPOTENCY_KEY_TTL_MS);
      assert.equal((await add(key, customer({ first_name: 'Bob' }))).status, 200);
    });
  });

  // These two store their answer with their change: in its one statement on PostgreSQL, in its unit on SQLite. The same
  // rules either way.
  describe(`idempotency keys on payment requests and refunds (${database})`, () => {
    let service: TestService;
    let merchantKey: string;
    before(async () => {
      service = await startService({ database });
      ({ merchantKey } = await approvedMerchant(service));
    });
    after(() => service.close());
    const post = (path: string, key: string, json: Record<string, unknown>) =>
      service.api('POST', path, withKey(key, { json: { merchant_key: merchantKey, ...json } }));
    const refunded = async (saleId: string) =>
      (await service.api('GET', `/merchant/transactions/${saleId}`, { json: { merchant_key: merchantKey } })).body
        .data[0].refunded_amount;

    test('a payment request: the retry gets the first answer, and one link and one e-mail exist', async () => {
      const key = randomUUID();
      const email = `${randomUUID()}@example.com`;
      const body = { amount: '12.00', order_id: nextOrderId(), email };
      const first = await post('/requests', key, body);
      assert.equal(first.status, 200, first.text);
      assert.equal(first.headers['idempotent-replayed'], undefined);
      const again = await post('/requests', key, body);
      assert.deepEqual([again.status, again.text, again.headers['idempotent-replayed']], [200, first.text, 'true']);
      const messages: { recipient: string }[] = (await service.api('GET', '/sandbox/messages')).body.data;
      assert.equal(messages.filter((m) => m.recipient === email).length, 1, 'one e-mail');
      const taken = await post('/requests', randomUUID(), body);
      assert.equal(taken.status, 409, 'the order id was taken once');
    });

    test('a refund refused by the money rules is replayed as refused', async () => {
      const saleId = await paidSale(service, merchantKey, '10.00');
      const key = randomUUID();
      const refused = await post('/order/sales-return', key, { transaction_id: saleId, amount: '11.00' });
      assert.equal(refused.status, 400, refused.text);
      const again = await post('/order/sales-return', key, { transaction_id: saleId, amount: '11.00' });
      assert.deepEqual([again.status, again.text, again.headers['idempotent-replayed']], [400, refused.text, 'true']);
      assert.equal(await refunded(saleId), '0.00');
    });

    test('ten identical refunds at once: one refund, every other answer its replay or "in progress"', async () => {
      const saleId = await paidSale(service, merchantKey, '10.00');
      const key = randomUUID();
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => post('/order/sales-return', key, { transaction_id: saleId, amount: '3.00' })),
      );
      const ok = answers.filter((a) => a.status === 200);
      assert.equal(ok.filter((a) => a.headers['idempotent-replayed'] === undefined).length, 1);
      for (const answer of ok) assert.equal(answer.text, ok[0]!.text);
      for (const answer of answers.filter((a) => a.status !== 200))
        assert.deepEqual([answer.status, answer.body], [409, IN_PROGRESS]);
      assert.equal(await refunded(saleId), '3.00');
    });
  });

  describe(`idempotency keys: failures and slow handlers (${database})`, () => {
    let store: Store;
    let closeStore: () => Promise<void>;
    let app: FastifyInstance;
    let baseUrl: string;
    let auth: { id: string; secret: string };
    let flakyCalls = 0;
    let slowCalls = 0;
    let slowEntered: () => void = () => {};
    let finishSlow: () => void = () => {};

    before(async () => {
      ({ store, close: closeStore } = await openTestStore(database));
      const clock = new Clock();
      app = await buildApp({ store, clock, config: readConfig({ PAYKIT_DATA_DIR: 'memory' }) });
      await app.register(async (scope) => {
        requireClient(scope, store);
        honourIdempotencyKeys(scope, clock);
        // Fails on its first call, answers on later ones.
        scope.post('/flaky', async () => {
          flakyCalls += 1;
          if (flakyCalls === 1) throw new Error('database went away');
          return { result: true, message: 'Done.', data: { call: flakyCalls } };
        });
        // Writes nothing: its answer is recorded as it is sent, and while it waits it holds no transaction.
        scope.post('/slow', async () => {
          slowCalls += 1;
          slowEntered();
          await new Promise<void>((resolve) => (finishSlow = resolve));
          return { result: true, message: 'Slow but done.', data: { call: slowCalls } };
        });
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const client = await createClient(store, 'Partner', clock.now());
      auth = { id: client.clientId, secret: client.secretKey };
    });
    after(async () => {
      await app.close();
      await closeStore();
    });

    const post = (path: string, key: string): Promise<Answer> =>
      send(baseUrl, 'POST', path, withKey(key, { auth, json: { n: 1 } }));

    test('an answer of 500 is not kept: a retry runs again', async () => {
      const key = randomUUID();
      const failed = await post('/flaky', key);
      assert.equal(failed.status, 500);
      assert.equal(
        await store.idempotencyKeys.find(auth.id, digest(key), new Date()),
        undefined,
        'the claim is released',
      );
      const retried = await post('/flaky', key);
      assert.equal(retried.status, 200, retried.text);
      assert.equal(retried.headers['idempotent-replayed'], undefined);
      assert.equal(retried.body.data.call, 2);
      const replayed = await post('/flaky', key);
      assert.equal(replayed.text, retried.text);
      assert.equal(replayed.headers['idempotent-replayed'], 'true');
      assert.equal(flakyCalls, 2);
    });

    test('a key still being processed is a 409, then the finished answer is replayed', async () => {
      const key = randomUUID();
      const entered = new Promise<void>((resolve) => (slowEntered = resolve));
      const first = post('/slow', key);
      await entered;
      const meanwhile = await post('/slow', key);
      assert.equal(meanwhile.status, 409);
      assert.deepEqual(meanwhile.body, IN_PROGRESS);
      finishSlow();
      const done = await first;
      assert.equal(done.status, 200);
      const replayed = await post('/slow', key);
      assert.equal(replayed.text, done.text);
      assert.equal(replayed.headers['idempotent-replayed'], 'true');
      assert.equal(slowCalls, 1);
    });
  });

  describe(`idempotency key repository (${database})`, () => {
    let store: Store;
    let closeStore: () => Promise<void>;
    let clientId: string;
    const now = new Date('2030-01-01T00:00:00.000Z');
    const later = (ms: number) => new Date(now.getTime() + ms);
    before(async () => {
      ({ store, close: closeStore } = await openTestStore(database));
      clientId = (await createClient(store, 'Partner', now)).clientId;
    });
    after(() => closeStore());

    test('claim, conflict, complete, and release only of an unfinished claim', async () => {
      const keys = store.idempotencyKeys;
      const claim = await keys.claim(clientId, 'k1', 'fp', now);
      assert.deepEqual(claim, { claimed: true, claimedAt: now.toISOString() });
      const held = await keys.claim(clientId, 'k1', 'fp', later(1000));
      assert.equal(held.claimed, false);
      assert.deepEqual(!held.claimed && held.held, {
        client_id: clientId,
        key: 'k1',
        fingerprint: 'fp',
        status_code: null,
        body: null,
        created_at: now.toISOString(),
        locked_until: later(IDEMPOTENCY_LEASE_MS).toISOString(),
      });

      assert.equal(await keys.complete(clientId, 'k1', now.toISOString(), 201, '{"ok":true}'), true);
      assert.equal(
        await keys.complete(clientId, 'k1', now.toISOString(), 200, 'again'),
        false,
        'a finished answer is not overwritten',
      );
      await keys.release(clientId, 'k1', now.toISOString());
      const stored = await keys.find(clientId, 'k1', later(1000));
      assert.deepEqual([stored?.status_code, stored?.body], [201, '{"ok":true}'], 'release leaves a finished answer');

      await keys.claim(clientId, 'k2', 'fp', now);
      await keys.release(clientId, 'k2', now.toISOString());
      assert.equal(await keys.find(clientId, 'k2', now), undefined);
      assert.equal(
        (await keys.claim(clientId, 'k2', 'other', later(5))).claimed,
        true,
        'a released key can be claimed again',
      );
    });

    test('after 24 hours a key is forgotten and a new claim replaces it', async () => {
      const keys = store.idempotencyKeys;
      await keys.claim(clientId, 'old', 'fp', now);
      await keys.complete(clientId, 'old', now.toISOString(), 200, 'first');
      assert.ok(await keys.find(clientId, 'old', later(IDEMPOTENCY_KEY_TTL_MS - 1)));
      assert.equal(await keys.find(clientId, 'old', later(IDEMPOTENCY_KEY_TTL_MS)), undefined);
      assert.equal((await keys.claim(clientId, 'old', 'fp', later(IDEMPOTENCY_KEY_TTL_MS - 1))).claimed, false);
      const fresh = later(IDEMPOTENCY_KEY_TTL_MS);
      const replaced = await keys.claim(clientId, 'old', 'fp2', fresh);
      assert.deepEqual(replaced, { claimed: true, claimedAt: fresh.toISOString() });
      const row = await keys.find(clientId, 'old', fresh);
      assert.deepEqual([row?.fingerprint, row?.status_code, row?.body], ['fp2', null, null]);
      // Two racing claims of the same stale row: exactly one wins.
      await keys.complete(clientId, 'old', fresh.toISOString(), 200, 'second');
      const day3 = later(3 * IDEMPOTENCY_KEY_TTL_MS);
      const racing = await Promise.all(Array.from({ length: 5 }, () => keys.claim(clientId, 'old', 'fp3', day3)));
      assert.equal(racing.filter((r) => r.claimed).length, 1);
    });

    test('keys are per client', async () => {
      const otherId = (await createClient(store, 'Other', now)).clientId;
      assert.equal((await store.idempotencyKeys.claim(clientId, 'shared', 'a', now)).claimed, true);
      assert.equal((await store.idempotencyKeys.claim(otherId, 'shared', 'b', now)).claimed, true);
    });
  });
}
