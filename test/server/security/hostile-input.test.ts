import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { MAX_CLOCK_OFFSET_MS } from '../../../server/platform/clock.ts';
import { startService, type TestService } from '../../support/service.ts';
import { testDatabases } from '../../support/databases.ts';
import { approvedMerchant } from '../../support/payments.ts';
import type { Answer } from '../../support/http.ts';

/** One raw HTTP request, for what node's fetch refuses to send (bad encodings, huge headers). */
function rawRequest(baseUrl: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${path}`, { method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const text = bytes.toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text,
          bytes,
          body: text ? JSON.parse(text) : undefined,
        });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

for (const database of testDatabases()) {
  describe(`hostile input is a 4xx in the envelope and changes nothing (${database})`, () => {
    let service: TestService;
    let merchantKey: string;
    let publicKey: string;
    before(async () => {
      service = await startService({ database });
      ({ merchantKey } = await approvedMerchant(service));
      publicKey = (await service.api('GET', '/merchant')).body.data[0].public_data.public_key;
    });
    after(() => service.close());

    const customers = async () =>
      (await service.api('GET', '/customers', { json: { merchant_key: merchantKey } })).body.data.totalCount as number;

    test('non-finite hours cannot move the sandbox clock, and the service stays up for everyone', async () => {
      const before = service.clock.now().getTime();
      for (const hours of ['Infinity', '-Infinity', 'NaN', '1e400', 1e300, -1, 0]) {
        const answer = await service.api('POST', '/sandbox/clock/advance', { json: { hours } });
        assert.equal(answer.status, 400, `hours ${JSON.stringify(hours)}: ${answer.text}`);
        assert.equal(answer.body.result, false);
      }
      assert.equal(
        (
          await service.api('POST', '/sandbox/clock/advance', {
            raw: '{"hours":1e400}',
            headers: { 'content-type': 'application/json' },
          })
        ).status,
        400,
      );
      assert.ok(Math.abs(service.clock.now().getTime() - before) < 60_000, 'the clock did not move');
      assert.equal((await service.api('GET', '/merchant')).status, 200);
      const paid = await service.api('POST', '/requests', {
        json: { merchant_key: merchantKey, amount: '1.00', order_id: `clock-${Date.now()}` },
      });
      assert.equal(paid.status, 200, paid.text);
    });

    test('the sandbox clock moves at most 100 years ahead in all', async () => {
      const offset = service.clock.offset;
      service.clock.advance(MAX_CLOCK_OFFSET_MS - offset - 3_600_000);
      try {
        const refused = await service.api('POST', '/sandbox/clock/advance', { json: { hours: 2 } });
        assert.deepEqual(
          [refused.status, refused.body.message],
          [400, 'The sandbox clock may move at most 100 years ahead in all; it is already near that.'],
        );
        assert.equal((await service.api('POST', '/sandbox/clock/advance', { json: { hours: 0.5 } })).status, 200);
      } finally {
        service.clock.restore(offset);
      }
    });

    test('page numbers and sizes: non-finite, huge, hexadecimal or exponent text is a 400 on every listing', async () => {
      const session = (await service.api('POST', '/widgets/sessions', { json: { merchant_key: merchantKey } })).body
        .data.session_token;
      const listings: [string, Record<string, string>, (query: string) => Promise<Answer>][] = [
        ['page', {}, (q) => service.api('GET', `/customers?merchant_key=${merchantKey}&${q}`)],
        ['perPage', {}, (q) => service.api('GET', `/customers?merchant_key=${merchantKey}&${q}`)],
        ['pageNumber', {}, (q) => service.api('GET', `/merchant/transactions?merchant_key=${merchantKey}&${q}`)],
        ['page', {}, (q) => service.api('GET', `/client/webhooks/events?${q}`)],
        ['perPage', {}, (q) => service.api('GET', `/client/webhooks/events?${q}`)],
        [
          'page',
          {},
          (q) =>
            service.request('GET', `/api/v1/widgets/transactions?${q}`, {
              headers: { authorization: `Bearer ${session}` },
            }),
        ],
      ];
      for (const [name, , call] of listings) {
        for (const value of [
          'Infinity',
          '-Infinity',
          '1e20',
          '100000000000000000000',
          '0x10',
          '1e1',
          ' 7',
          'NaN',
          '2.5',
          '0',
        ]) {
          const answer = await call(`${name}=${encodeURIComponent(value)}`);
          assert.equal(answer.status, 400, `${name}=${value}: ${answer.text}`);
          assert.equal(answer.body.result, false);
          assert.match(answer.body.message, new RegExp(`^Invalid request: ${name} `));
        }
        assert.equal((await call(`${name}=3`)).status, 200, `${name}=3 is fine`);
      }
      // The same numbers in a GET's JSON body keep their JSON type.
      const inBody = await service.api('GET', '/customers', { json: { merchant_key: merchantKey, page: '2' } });
      assert.deepEqual([inBody.status, inBody.body.message], [400, 'Invalid request: page must be a whole number.']);
      const hugeInBody = await service.api('GET', '/customers', { json: { merchant_key: merchantKey, perPage: 1e20 } });
      assert.equal(hugeInBody.status, 400);
    });

    test('overlap_hours must be a finite whole number of hours', async () => {
      await service.api('POST', '/client/update-webhooks-url', { json: { webhook_url: 'http://127.0.0.1:9/hooks' } });
      for (const overlap_hours of ['Infinity', '-Infinity', 1e20, '24', 2.5, null]) {
        const answer = await service.api('POST', '/client/webhooks/rotate-secret', { json: { overlap_hours } });
        assert.equal(answer.status, 400, `${JSON.stringify(overlap_hours)}: ${answer.text}`);
      }
    });

    test('JSON types are not coerced: true is not "true", null is not false, "0x10" is not 16', async () => {
      const request = (fields: Record<string, unknown>) =>
        service.api('POST', '/requests', {
          json: { merchant_key: merchantKey, amount: '1.00', order_id: `coerce-${Math.random()}`, ...fields },
        });
      const cases: [Record<string, unknown>, string][] = [
        [{ allow_card: 'true' }, 'Invalid request: allow_card must be true or false.'],
        [{ allow_card: null }, 'Invalid request: allow_card must be true or false.'],
        [{ preauth: 1 }, 'Invalid request: preauth must be true or false.'],
        [{ order_id: 12 }, 'Invalid request: order_id must be text.'],
        [{ amount: true }, 'Invalid request: amount must be text or a number.'],
        [{ amount: ['1.00'] }, 'Invalid request: amount must be text or a number.'],
      ];
      for (const [fields, message] of cases) {
        const answer = await request(fields);
        assert.deepEqual([answer.status, answer.body.message], [400, message], JSON.stringify(fields));
      }
      const exp = await service.api('POST', '/sandbox/pay', {
        json: { pay_link: 'x', method: 'card', exp_month: '0x10' },
      });
      assert.deepEqual([exp.status, exp.body.message], [400, 'Invalid request: exp_month must be a whole number.']);
      // A number for an amount is declared (the interface's charge sends one) and read exactly as its text.
      assert.equal((await request({ amount: 2.5 })).status, 200);
      assert.equal((await request({ amount: 2.555 })).status, 400);
    });

    test('unknown fields are refused by name, at any depth, and nothing is stored', async () => {
      const before = await customers();
      const typo = await service.api('POST', '/customers/add', {
        json: { merchant_key: merchantKey, first_name: 'A', last_name: 'B', emial: 'a@b.co' },
      });
      assert.equal(typo.status, 400);
      assert.equal(
        typo.body.message,
        'Invalid request: emial is not a field of this call (it takes: merchant_key, first_name, last_name, email, phone_number).',
      );
      const session = (await service.api('GET', '/auth/create-session')).body.data.sessionToken;
      const nested = await service.api('POST', `/auth/onboarding/${session}`, { json: { BusinessInfo: { x: {} } } });
      assert.equal(nested.status, 400, nested.text);
      assert.match(
        nested.body.message,
        /^Invalid request: BusinessInfo\.x is not a field of this call \(BusinessInfo takes: business_name, /,
      );
      assert.equal(await customers(), before);
    });

    test('the NUL character is refused in bodies, query strings, paths and GET bodies', async () => {
      const before = await customers();
      const inBody = await service.api('POST', '/customers/add', {
        json: { merchant_key: merchantKey, first_name: 'A\u0000', last_name: 'B', email: 'a@b.co' },
      });
      assert.deepEqual(
        [inBody.status, inBody.body.message],
        [400, 'Text must not contain the NUL character (\\u0000); body.first_name does.'],
      );
      const inKey = await service.api('POST', '/customers/add', {
        json: { merchant_key: merchantKey, first_name: 'A', last_name: 'B', 'e\u0000': 1 },
      });
      assert.deepEqual(
        [inKey.status, inKey.body.message],
        [400, 'Text must not contain the NUL character (\\u0000); body.e\\u0000 does.'],
      );
      const session = (await service.api('GET', '/auth/create-session')).body.data.sessionToken;
      const nested = await service.api('POST', `/auth/onboarding/${session}`, {
        json: { BusinessInfo: { business_name: 'Shop', website: 'https://x\u0000.example' } },
      });
      assert.deepEqual(
        [nested.status, nested.body.message],
        [400, 'Text must not contain the NUL character (\\u0000); body.BusinessInfo.website does.'],
      );
      const inPath = await service.api('GET', `/customers/c_%00?merchant_key=${merchantKey}`);
      assert.deepEqual(
        [inPath.status, inPath.body.message],
        [400, 'Text must not contain the NUL character (\\u0000); path.customerId does.'],
      );
      const inQuery = await service.api('GET', `/customers?merchant_key=${merchantKey}%00`);
      assert.equal(inQuery.status, 400);
      const inGetBody = await service.api('GET', '/merchant/transactions', {
        json: { merchant_key: `${merchantKey}\u0000` },
      });
      assert.equal(inGetBody.status, 400);
      const refund = await service.api('POST', '/order/sales-return', {
        json: { merchant_key: merchantKey, transaction_id: 'txn_\u0000', amount: '1.00' },
      });
      assert.equal(refund.status, 400);
      const widget = await service.request('POST', `/api/v1/widgets/${publicKey}/pay-links`, {
        json: { amount: '1.00', description: '\u0000' },
      });
      assert.equal(widget.status, 400);
      assert.equal(await customers(), before);
    });

    test('deeply nested JSON is a 400 before anything walks it, with or without an Idempotency-Key', async () => {
      const deep = `${'{"a":'.repeat(4000)}1${'}'.repeat(4000)}`;
      const variants: Record<string, string>[] = [
        { 'content-type': 'application/json' },
        { 'content-type': 'application/json', 'idempotency-key': 'deep-1' },
        { 'content-type': 'text/plain' },
      ];
      for (const headers of variants) {
        const answer = await service.api('POST', '/customers/add', { raw: deep, headers });
        assert.deepEqual(
          [answer.status, answer.body],
          [
            400,
            {
              result: false,
              message: 'The body nests objects or arrays more than 32 levels deep.',
              code: 'invalid_request',
            },
          ],
        );
      }
      const arrays = await service.api('GET', '/customers', {
        raw: `{"merchant_key":${'['.repeat(50)}${']'.repeat(50)}}`,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(arrays.status, 400);
      // Brackets inside strings are text, not nesting.
      const inText = await service.api('POST', '/customers/add', {
        json: { merchant_key: merchantKey, first_name: '{'.repeat(40), last_name: '[', email: 'x@y.co' },
      });
      assert.equal(inText.status, 200, inText.text);
    });

    test('__proto__ and constructor keys are refused', async () => {
      const answer = await service.api('POST', '/customers/add', {
        raw: `{"merchant_key":"${merchantKey}","__proto__":{"admin":true}}`,
        headers: { 'content-type': 'application/json' },
      });
      assert.deepEqual(
        [answer.status, answer.body.message],
        [400, 'The body must not use the keys __proto__ or constructor.'],
      );
    });

    test('amounts have a documented ceiling of 999,999.99, by partner call and by public key', async () => {
      const over = await service.api('POST', '/requests', {
        json: { merchant_key: merchantKey, amount: '9999999999999.99', order_id: `max-${Date.now()}` },
      });
      assert.deepEqual([over.status, over.body.message], [400, 'amount must be at most 999999.99.']);
      const surcharged = await service.api('POST', '/requests', {
        json: { merchant_key: merchantKey, amount: '999999.99', surcharge: '1.00', order_id: `max2-${Date.now()}` },
      });
      assert.deepEqual(
        [surcharged.status, surcharged.body.message],
        [400, 'amount - discount + surcharge + tax must be at most 999999.99.'],
      );
      const atMost = await service.api('POST', '/requests', {
        json: { merchant_key: merchantKey, amount: 999999.99, order_id: `max3-${Date.now()}` },
      });
      assert.equal(atMost.status, 200, atMost.text);
      const byPublicKey = await service.request('POST', `/api/v1/widgets/${publicKey}/pay-links`, {
        json: { amount: '1000000.00' },
      });
      assert.deepEqual([byPublicKey.status, byPublicKey.body.message], [400, 'amount must be at most 999999.99.']);
    });

    test('bad %-encoding, an over-long path id and oversized headers answer in the envelope, echoing nothing', async () => {
      const badEncoding = await rawRequest(
        service.baseUrl,
        `/api/v1/customers/%E0%A4%A?merchant_key=${merchantKey}`,
        {},
      );
      assert.equal(badEncoding.status, 400);
      assert.deepEqual(badEncoding.body, {
        result: false,
        message: 'The path is not valid: a "%" must be followed by two hexadecimal digits of UTF-8.',
        code: 'invalid_request',
      });
      assert.ok(!badEncoding.text.includes(merchantKey), 'the merchant key is not echoed');
      const longId = await rawRequest(
        service.baseUrl,
        `/api/v1/customers/${'c'.repeat(101)}?merchant_key=${merchantKey}`,
        {},
      );
      assert.deepEqual(
        [longId.status, longId.body],
        [
          414,
          {
            result: false,
            message: 'An identifier in the path is longer than 100 characters: no identifier of ours is.',
            code: 'invalid_request',
          },
        ],
      );
      assert.ok(!longId.text.includes(merchantKey));
      const bigHeader = await rawRequest(service.baseUrl, '/api/v1/merchant', { 'x-padding': 'a'.repeat(20_000) });
      assert.deepEqual(
        [bigHeader.status, bigHeader.body],
        [431, { result: false, message: 'The request headers are larger than 16 KB.', code: 'invalid_request' }],
      );
    });
  });
}
