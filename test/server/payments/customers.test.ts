import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { testDatabases } from '../../support/databases.ts';
import { validApplication } from '../../support/fixtures.ts';

for (const database of testDatabases()) {
  describe(`customers (${database})`, () => {
    let service: TestService;
    let merchantKey: string;
    before(async () => {
      service = await startService({ database });
      merchantKey = (await service.api('POST', '/onboarding', { json: validApplication() })).body.data.merchant_key;
    });
    after(() => service.close());

    const add = (fields: Record<string, unknown>) =>
      service.api('POST', '/customers/add', {
        json: { merchant_key: merchantKey, first_name: 'Ann', last_name: 'Lee', ...fields },
      });

    test('adds a customer with normalized e-mail and phone, and reads it back', async () => {
      const created = await add({ email: 'Ann.Lee@Example.com', phone_number: '(415) 555-0123' });
      assert.equal(created.status, 200, created.text);
      assert.equal(created.body.message, 'Customer created.');
      assert.match(created.body.data.customer_id, /^c_[0-9a-f-]{36}$/);
      assert.equal(created.body.data.customer_email, 'ann.lee@example.com');
      assert.equal(created.body.data.customer_phone, '+14155550123');

      const id = created.body.data.customer_id;
      const viaBody = await service.api('GET', `/customers/${id}`, { json: { merchant_key: merchantKey } });
      assert.equal(viaBody.status, 200);
      assert.deepEqual(viaBody.body, { result: true, message: 'Customer retrieved.', data: created.body.data });
      const viaQuery = await service.api('GET', `/customers/${id}?merchant_key=${encodeURIComponent(merchantKey)}`);
      assert.deepEqual(viaQuery.body, viaBody.body);
    });

    test('validation: e-mail, phone, at least one contact, names', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ email: 'ann@' }, 'email "ann@" is not an e-mail address, e.g. jane@example.com.'],
        [
          { phone_number: '555-01' },
          'phone_number "555-01" is not a phone number: send "+" and the country code, or ten digits, e.g. +14155550123.',
        ],
        [{}, 'Give the customer an email or a phone_number (or both), so a pay link can reach them.'],
        [{ email: 'a@b.co', first_name: '  ' }, 'first_name and last_name must not be blank.'],
        [{ email: 'a@b.co', first_name: '' }, 'Invalid request: first_name must NOT have fewer than 1 characters.'],
        [{ email: 'a@b.co', last_name: undefined }, 'Invalid request: last_name is required.'],
        [
          { email: 'a@b.co', first_name: 'x'.repeat(101) },
          'Invalid request: first_name must NOT have more than 100 characters.',
        ],
      ];
      const before = (await service.api('GET', '/customers', { json: { merchant_key: merchantKey } })).body.data
        .totalCount;
      for (const [fields, message] of cases) {
        const answer = await add(fields);
        assert.equal(answer.status, 400, JSON.stringify(fields));
        assert.deepEqual(answer.body, { result: false, message, code: 'invalid_request' });
      }
      const missingKey = await service.api('POST', '/customers/add', {
        json: { first_name: 'A', last_name: 'B', email: 'a@b.co' },
      });
      assert.equal(missingKey.body.message, 'Invalid request: merchant_key is required.');
      const after = (await service.api('GET', '/customers', { json: { merchant_key: merchantKey } })).body.data
        .totalCount;
      assert.equal(after, before, 'refused customers are not stored');
    });

    test('an unknown customer or merchant key is a 404', async () => {
      const unknown = await service.api('GET', '/customers/c_missing', { json: { merchant_key: merchantKey } });
      assert.deepEqual(unknown.body, {
        result: false,
        message: 'No customer c_missing for this merchant.',
        code: 'not_found',
      });
      assert.equal(unknown.status, 404);
      const badKey = await add({ merchant_key: 'mk_nope', email: 'a@b.co' });
      assert.equal(badKey.status, 404);
      assert.equal(badKey.body.message, 'merchant_key does not match any of your merchants: check the key.');
    });

    test("a customer of one merchant is not found through another merchant's key", async () => {
      const otherKey = (await service.api('POST', '/onboarding', { json: validApplication() })).body.data.merchant_key;
      const id = (await add({ email: 'mine@example.com' })).body.data.customer_id;
      const answer = await service.api('GET', `/customers/${id}`, { json: { merchant_key: otherKey } });
      assert.equal(answer.status, 404);
    });

    test('lists newest first with page, perPage and the counts', async () => {
      const merchant = (await service.api('POST', '/onboarding', { json: validApplication() })).body.data.merchant_key;
      const ids: string[] = [];
      for (let i = 0; i < 23; i++) {
        const answer = await service.api('POST', '/customers/add', {
          json: { merchant_key: merchant, first_name: `N${i}`, last_name: 'Lee', email: `n${i}@example.com` },
        });
        ids.push(answer.body.data.customer_id);
      }
      const first = await service.api('GET', '/customers', { json: { merchant_key: merchant } });
      assert.equal(first.status, 200);
      assert.equal(first.body.message, 'Customers retrieved.');
      const { allList, page, perPage, totalCount, totalPage } = first.body.data;
      assert.deepEqual(
        { page, perPage, totalCount, totalPage },
        { page: 1, perPage: 20, totalCount: 23, totalPage: 2 },
      );
      assert.equal(allList.length, 20);
      assert.equal(allList[0].customer_id, ids[22]);
      assert.deepEqual(Object.keys(allList[0]).sort(), [
        'Email',
        'Phone',
        'create_date',
        'customer_id',
        'first_name',
        'last_name',
      ]);
      assert.deepEqual(allList[0], {
        Email: 'n22@example.com',
        Phone: '',
        create_date: allList[0].create_date,
        customer_id: ids[22],
        first_name: 'N22',
        last_name: 'Lee',
      });

      const second = await service.api('GET', '/customers', { json: { merchant_key: merchant, page: 2 } });
      assert.deepEqual(
        second.body.data.allList.map((c: { customer_id: string }) => c.customer_id),
        ids.slice(0, 3).reverse(),
      );

      const small = await service.api(
        'GET',
        `/customers?merchant_key=${encodeURIComponent(merchant)}&page=3&perPage=5`,
      );
      assert.deepEqual(
        small.body.data.allList.map((c: { customer_id: string }) => c.customer_id),
        ids.slice(8, 13).reverse(),
      );
      assert.equal(small.body.data.totalPage, 5);

      const beyond = await service.api('GET', '/customers', { json: { merchant_key: merchant, page: 9 } });
      assert.deepEqual(beyond.body.data.allList, []);
      assert.equal(beyond.body.data.totalCount, 23);
    });

    test('paging parameters are validated', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ page: 0 }, 'Invalid request: page must be >= 1.'],
        [{ perPage: 101 }, 'Invalid request: perPage must be <= 100.'],
        [{ perPage: 'many' }, 'Invalid request: perPage must be a whole number.'],
      ];
      for (const [fields, message] of cases) {
        const answer = await service.api('GET', '/customers', { json: { merchant_key: merchantKey, ...fields } });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.message, message);
      }
    });
  });
}
