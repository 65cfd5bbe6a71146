import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import SwaggerParser from '@apidevtools/swagger-parser';
import { startService, type TestService } from '../../support/service.ts';
import {
  declaredOperations,
  DeclaredAnswers,
  dereference,
  type DeclaredOperation,
  type JsonSchema,
} from '../../support/openapi.ts';
import { TAGS } from '../../../server/openapi/document.ts';
import { approvedMerchant } from '../../support/payments.ts';
import { OPERATION_EXAMPLES } from '../../../server/openapi-examples/index.ts';
import { EXPECTATION_FAILED } from '../../../server/plugins/expectation-failed.ts';

const SHARED_STATUSES = [
  '400',
  '401',
  '402',
  '403',
  '404',
  '408',
  '409',
  '413',
  '414',
  '415',
  '417',
  '422',
  '429',
  '431',
  '500',
  '503',
];
const byPublicKey = ({ path }: DeclaredOperation) => path.startsWith('/widgets/{public_key}/');
/** The payments console's calls, with a widget session token: the table's listing and everything under it. */
const bySession = ({ path }: DeclaredOperation) =>
  ['/widgets/transactions', '/widgets/payouts', '/widgets/disputes'].some(
    (table) => path === table || path.startsWith(`${table}/`),
  );
const key = ({ method, path }: DeclaredOperation) => `${method} ${path}`;

describe('the OpenAPI document', () => {
  let service: TestService;
  let document: JsonSchema;
  let operations: DeclaredOperation[];
  before(async () => {
    service = await startService();
    const answer = await service.request('GET', '/api/v1/openapi.json');
    assert.equal(answer.status, 200);
    document = answer.body;
    operations = declaredOperations(await dereference(document));
  });
  after(() => service.close());

  test('is valid OpenAPI 3.1 by an external validator (@apidevtools/swagger-parser)', async () => {
    assert.equal(document['openapi'], '3.1.0');
    await SwaggerParser.validate(structuredClone(document) as never);
    assert.match(document['servers'][0].url, /\/api\/v1$/, 'paths are relative to the versioned base URL');
  });

  test('every operation has a unique operationId, a summary and one described tag; the hosted pages and the operator API are not in it', () => {
    assert.ok(operations.length >= 40, `${operations.length} operations`);
    const ids = operations.map(({ operation }) => operation['operationId']);
    assert.ok(
      ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id)),
      ids.join(', '),
    );
    assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
    assert.deepEqual(
      document['tags'].map((tag: { name: string }) => tag.name),
      TAGS.map((tag) => tag.name),
    );
    for (const declared of operations) {
      assert.ok(declared.operation['summary'], `${key(declared)} has a summary`);
      assert.equal(declared.operation['tags'].length, 1, key(declared));
      assert.ok(
        TAGS.some((tag) => tag.name === declared.operation['tags'][0]),
        `${key(declared)}: ${declared.operation['tags'][0]} is a declared tag`,
      );
    }
    const paths = Object.keys(document['paths']);
    assert.ok(!paths.some((path) => /^\/(docs|portal|pay|onboard|operator|health)(\/|$)/.test(path)), paths.join(' '));
  });

  test('says who may call each operation: Basic for the partner, nothing but the public key in the path for the widgets, a session token for the table', () => {
    assert.deepEqual(document['security'], [{ basicAuth: [] }]);
    assert.deepEqual(Object.keys(document['components'].securitySchemes), ['basicAuth', 'widgetSession']);
    for (const declared of operations) {
      const security = declared.operation['security'];
      if (byPublicKey(declared)) assert.deepEqual(security, [], key(declared));
      else if (bySession(declared)) assert.deepEqual(security, [{ widgetSession: [] }], key(declared));
      else assert.equal(security, undefined, `${key(declared)} takes the document's Basic authentication`);
    }
  });

  test('declares every refusal with the envelope, Retry-After on 409 and 429, the ETag 304, and Idempotency-Key on partner writes', () => {
    const failure = document['components'].schemas.Failure;
    assert.deepEqual(failure.required, ['result', 'message', 'code']);
    assert.ok(failure.properties.code.enum.includes('service_error'));
    for (const declared of operations) {
      const responses = declared.operation['responses'];
      // Every answer is JSON but a CSV export's.
      assert.ok(
        (responses['200'].content['application/json'] ?? responses['200'].content['text/csv']).schema,
        `${key(declared)} declares its answer`,
      );
      for (const status of SHARED_STATUSES) {
        assert.ok(responses[status], `${key(declared)} declares ${status}`);
        assert.deepEqual(
          responses[status].content['application/json'].schema,
          failure,
          `${key(declared)} ${status} is the envelope`,
        );
      }
      for (const status of ['409', '429'])
        assert.ok(responses[status].headers['retry-after'], `${key(declared)} ${status} has Retry-After`);
      const headers = (declared.operation['parameters'] ?? [])
        .filter((p: { in: string }) => p.in === 'header')
        .map((p: { name: string }) => p.name);
      const partnerWrite = declared.method !== 'GET' && !byPublicKey(declared) && !bySession(declared);
      assert.deepEqual(headers, partnerWrite ? ['idempotency-key'] : [], key(declared));
    }
    const merchants = operations.find((declared) => key(declared) === 'GET /merchant')!;
    assert.ok(merchants.operation['responses']['304'], 'GET /merchant may answer 304');
  });

  test('answers found before a route is chosen are declared too, in the envelope: an over-long path id (414), an Expect other than 100-continue (417), oversized headers (431)', async () => {
    // service.api fails on any answer the document does not declare for the operation.
    const longId = await service.api('GET', `/customers/${'c'.repeat(101)}?merchant_key=mk_x`);
    assert.deepEqual([longId.status, longId.body.code], [414, 'invalid_request']);
    const bigHeaders = await service.api('GET', '/merchant', { headers: { 'x-padding': 'a'.repeat(20_000) } });
    assert.deepEqual([bigHeaders.status, bigHeaders.body.code], [431, 'invalid_request']);
    const expectation = await service.api('GET', '/merchant', { headers: { expect: 'something-else' } });
    assert.deepEqual(
      [expectation.status, expectation.body],
      [417, { result: false, message: EXPECTATION_FAILED, code: 'invalid_request' }],
    );
  });

  test('declares the content types each body is read from, and no other is accepted', async () => {
    const { merchantId, merchantKey } = await approvedMerchant(service);
    const merchants = (await service.api('GET', '/merchant')).body.data as {
      merchant_id: string;
      public_data: { public_key: string };
    }[];
    const publicKey = merchants.find((merchant) => merchant.merchant_id === merchantId)!.public_data.public_key;
    // The console's calls check their session before they read a body: they are sent with one (disputes checks its
    // feature before it reads a body of up to 7 MB, so the session grants it).
    const session = (
      await service.api('POST', '/widgets/sessions', {
        json: { merchant_key: merchantKey, features: { disputes: true } },
      })
    ).body.data.session_token as string;
    for (const declared of operations) {
      const content = declared.operation['requestBody']?.content;
      if (!content) continue;
      const types = Object.keys(content);
      const flatText = Object.values<JsonSchema>(content['application/json'].schema.properties ?? {}).every(
        (field) =>
          field['type'] === 'string' || field['anyOf']?.some((choice: JsonSchema) => choice['type'] === 'string'),
      );
      const expected = byPublicKey(declared)
        ? ['application/json']
        : ['application/json', 'text/plain', ...(flatText ? ['application/x-www-form-urlencoded'] : [])];
      assert.deepEqual(types, expected, key(declared));

      const path = declared.path.replace('{public_key}', publicKey).replace(/\{[^}]+\}/g, 'x');
      const call = (type: string) =>
        service.api(declared.method, path, {
          raw: type.includes('form') ? 'a=b' : '{}',
          ...(bySession(declared) ? { auth: null } : {}),
          headers: {
            'content-type': type,
            ...(byPublicKey(declared) ? { origin: 'https://shop.example' } : {}),
            ...(bySession(declared) ? { authorization: `Bearer ${session}` } : {}),
          },
        });
      for (const type of types) {
        const status = (await call(type)).status;
        assert.notEqual(status, 415, `${key(declared)} reads ${type}`);
      }
      assert.equal((await call('application/xml')).status, 415, `${key(declared)} refuses application/xml`);
    }
  });

  test('enumerated fields list their values, in requests and in answers', () => {
    const find = (id: string) => operations.find((declared) => declared.operation['operationId'] === id)!.operation;
    const onboarding = find('onboardMerchant')['requestBody'].content['application/json'].schema;
    assert.deepEqual(onboarding.properties.BusinessInfo.properties.ownershiptype.anyOf[0].enum, [
      'sole_proprietorship',
      'partnership',
      'llc',
      'corporation',
      's_corporation',
      'non_profit',
      'government',
    ]);
    assert.match(onboarding.properties.BusinessInfo.properties.ein.description, /required by the review/);
    const transaction =
      find('listTransactions')['responses']['200'].content['application/json'].schema.properties.data.items;
    assert.deepEqual(transaction.properties.type.enum, ['sale', 'refund', 'void', 'ach_return']);
    assert.deepEqual(transaction.properties.method.enum, ['card', 'ach']);
    const delivery = find('listWebhookDeliveries')['responses']['200'].content['application/json'].schema;
    assert.match(JSON.stringify(delivery), /"enum":\["pending","delivered","failed"\]/);
    const status = find('getOnboardingStatus')['responses']['200'].content['application/json'].schema;
    assert.match(JSON.stringify(status), /"enum":\["pending","completed","declined"\]/);
  });

  test('every operation shows its example: parameters, body and answer, and the paykit/client call (or the element) as x-codeSamples', () => {
    for (const declared of operations) {
      const { operation } = declared;
      const example = OPERATION_EXAMPLES[key(declared)]!;
      assert.ok(example, key(declared));
      const success = operation['responses']['200'];
      assert.match(success.description, /^Done/, key(declared));
      assert.deepEqual(
        (success.content['application/json'] ?? success.content['text/csv']).example,
        example.answer,
        key(declared),
      );
      if (example.body)
        assert.deepEqual(operation['requestBody'].content['application/json'].example, example.body, key(declared));
      for (const parameter of operation['parameters'] ?? []) {
        const values = parameter.in === 'path' ? example.params : parameter.in === 'query' ? example.query : undefined;
        if (values?.[parameter.name] !== undefined)
          assert.equal(parameter.example, values[parameter.name], `${key(declared)} ${parameter.name}`);
      }
      const [sample] = operation['x-codeSamples'];
      if (byPublicKey(declared))
        assert.equal(example.clientLang, 'html', `${key(declared)} is made by an element in the page`);
      if (example.clientLang === 'html')
        assert.deepEqual(sample, { lang: 'HTML', label: 'Paykit element', source: example.client });
      else {
        assert.equal(sample.lang, 'TypeScript', key(declared));
        assert.ok(sample.source.startsWith("import { PaykitClient } from 'paykit/client';"), key(declared));
        assert.ok(sample.source.endsWith(example.client), key(declared));
      }
    }
  });

  test('the test harness holds every answer to it: an undeclared status or a body off its schema is caught', async () => {
    const declared = await DeclaredAnswers.of(document);
    const json = { 'content-type': 'application/json; charset=utf-8' };
    const ok = JSON.stringify({ result: true, message: 'Merchants retrieved.', data: [] });
    assert.equal(declared.problemsWith('GET', '/api/v1/merchant', { status: 200, headers: json, text: ok }), undefined);
    assert.match(
      declared.problemsWith('GET', '/api/v1/merchant', {
        status: 200,
        headers: json,
        text: JSON.stringify({ result: true, data: [] }),
      })!,
      /must have required property 'message'/,
    );
    assert.match(
      declared.problemsWith('GET', '/api/v1/merchant', { status: 201, headers: json, text: ok })!,
      /does not declare status 201/,
    );
    assert.match(
      declared.problemsWith('GET', '/api/v1/merchant', {
        status: 400,
        headers: json,
        text: JSON.stringify({ result: false, message: 'x' }),
      })!,
      /required property 'code'/,
    );
    assert.match(
      declared.problemsWith('GET', '/api/v1/nowhere', { status: 200, headers: json, text: ok })!,
      /no operation declares/,
    );
    assert.equal(
      declared.problemsWith('GET', '/api/v1/customers/abc?merchant_key=k', {
        status: 404,
        headers: json,
        text: JSON.stringify({ result: false, message: 'No customer.', code: 'not_found' }),
      }),
      undefined,
    );
  });
});
