import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { validApplication } from '../../support/fixtures.ts';

describe('HTTP basics', () => {
  let service: TestService;
  before(async () => {
    service = await startService();
  });
  after(() => service.close());

  test('GET /health answers 200 without credentials', async () => {
    const answer = await service.request('GET', '/health');
    assert.equal(answer.status, 200);
    assert.equal(answer.body.result, true);
  });

  test('missing credentials: 401 with a Basic challenge', async () => {
    const answer = await service.api('GET', '/merchant', { auth: null });
    assert.equal(answer.status, 401);
    assert.equal(answer.headers['www-authenticate'], 'Basic realm="Paykit", charset="UTF-8"');
    assert.deepEqual(answer.body, {
      result: false,
      message: 'Missing credentials: send HTTP Basic authentication with your client id and secret key.',
      code: 'authentication_failed',
    });
  });

  test('wrong secret, unknown client, malformed header: 401', async () => {
    const wrongSecret = await service.api('GET', '/merchant', {
      auth: { id: service.client.clientId, secret: 'sk_wrong' },
    });
    assert.equal(wrongSecret.status, 401);
    assert.equal(wrongSecret.body.message, 'Invalid credentials: the client id or secret key is wrong.');
    const unknown = await service.api('GET', '/merchant', {
      auth: { id: 'cli_nobody', secret: service.client.secretKey },
    });
    assert.equal(unknown.status, 401);
    const bearer = await service.api('GET', '/merchant', { auth: null, headers: { authorization: 'Bearer abc' } });
    assert.equal(bearer.status, 401);
    const noColon = await service.api('GET', '/merchant', {
      auth: null,
      headers: { authorization: `Basic ${Buffer.from('just-an-id').toString('base64')}` },
    });
    assert.equal(noColon.status, 401);
  });

  test('every endpoint requires credentials', async () => {
    const endpoints = [
      ['GET', '/merchant'],
      ['GET', '/auth/create-session'],
      ['POST', '/auth/onboarding/x'],
      ['POST', '/auth/get-onboarding-status'],
      ['POST', '/onboarding'],
      ['POST', '/customers/add'],
      ['GET', '/customers'],
      ['GET', '/customers/c_1'],
      ['POST', '/approve-merchant'],
    ];
    for (const [method, path] of endpoints) {
      const answer = await service.api(method!, path!, { auth: null, json: {} });
      assert.equal(answer.status, 401, `${method} ${path}`);
    }
  });

  test('an unknown route is a 404 in the envelope', async () => {
    const answer = await service.api('POST', '/no/such/thing');
    assert.equal(answer.status, 404);
    assert.deepEqual(answer.body, {
      result: false,
      message: 'No such endpoint: POST /api/v1/no/such/thing. The list is at /docs.',
      code: 'not_found',
    });
  });

  test('malformed JSON is a 400 and changes nothing', async () => {
    const answer = await service.api('POST', '/onboarding', {
      raw: '{"BankingInfo": ',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body, { result: false, message: 'The body is not valid JSON.', code: 'invalid_request' });
    const getBody = await service.api('GET', '/customers', {
      raw: '{oops',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(getBody.status, 400);
    assert.equal(getBody.body.message, 'The body is not valid JSON.');
    const arrayBody = await service.api('GET', '/customers', {
      raw: '[1]',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(arrayBody.body.message, 'The body must be a JSON object.');
  });

  test('a body over 64 KiB is a 413, on POST and on GET', async () => {
    const big = JSON.stringify({ merchant_key: 'x'.repeat(70 * 1024) });
    const post = await service.api('POST', '/customers/add', {
      raw: big,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(post.status, 413);
    assert.deepEqual(post.body, { result: false, message: 'The body is too large.', code: 'body_too_large' });
    const get = await service.api('GET', '/customers', { raw: big, headers: { 'content-type': 'application/json' } });
    assert.equal(get.status, 413);
  });

  test('an unsupported content-type is a 415', async () => {
    const answer = await service.api('POST', '/customers/add', {
      raw: '<xml/>',
      headers: { 'content-type': 'application/xml' },
    });
    assert.equal(answer.status, 415);
    assert.equal(answer.body.result, false);
  });

  test('JSON inside text/plain and form-urlencoded bodies are read like JSON', async () => {
    const { merchant_key } = (await service.api('POST', '/onboarding', { json: validApplication() })).body.data;
    const plain = await service.api('POST', '/customers/add', {
      raw: JSON.stringify({ merchant_key, first_name: 'Plain', last_name: 'Text', email: 'p@t.co' }),
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(plain.status, 200, plain.text);
    const notJson = await service.api('POST', '/customers/add', {
      raw: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    assert.deepEqual(notJson.body, {
      result: false,
      message: 'The text/plain body must hold a JSON object.',
      code: 'invalid_request',
    });
    const form = await service.api('POST', '/customers/add', {
      form: { merchant_key, first_name: 'Form', last_name: 'Body', phone_number: '+442079460958' },
    });
    assert.equal(form.status, 200, form.text);
    assert.equal(form.body.data.customer_phone, '+442079460958');
  });
});
