import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../support/service.ts';
import { Receiver } from '../support/receiver.ts';
import { freePort } from '../support/process.ts';
import { partnerApplication as application } from '../support/fixtures.ts';
import {
  PaykitAuthenticationError,
  PaykitClient,
  PaykitConnectionError,
  PaykitError,
  PaykitInvalidRequestError,
  PaykitNotFoundError,
  PaykitPermissionError,
  PaykitRateLimitError,
  PaykitServiceError,
} from '../../client/index.ts';

/** The PaykitError of class `kind` that `promise` rejects with (failing when it resolves or throws something else). */
async function failure<E extends PaykitError>(
  promise: PromiseLike<unknown>,
  kind: new (...args: never[]) => E = PaykitError as never,
): Promise<E> {
  const error = await Promise.resolve(promise).then(
    () => assert.fail('expected the call to fail'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof kind, `expected a ${kind.name}, got ${String(error)}`);
  assert.ok(error instanceof PaykitError);
  assert.equal(error.name, (error as E).constructor.name);
  return error as E;
}

const credentials = { clientId: 'cli_test', secretKey: 'sk_test' };

describe('PaykitClient options', () => {
  test('sandbox is the default environment, at http://localhost:4010; /api/v1 is appended', () => {
    assert.equal(new PaykitClient(credentials).baseUrl, 'http://localhost:4010/api/v1');
    assert.equal(new PaykitClient({ ...credentials, environment: 'sandbox' }).baseUrl, 'http://localhost:4010/api/v1');
  });

  test('baseUrl wins over the environment; a trailing slash or /api/v1 is not doubled', () => {
    assert.equal(
      new PaykitClient({ ...credentials, environment: 'sandbox', baseUrl: 'https://pay.example.com' }).baseUrl,
      'https://pay.example.com/api/v1',
    );
    assert.equal(
      new PaykitClient({ ...credentials, environment: 'production', baseUrl: 'https://pay.example.com/' }).baseUrl,
      'https://pay.example.com/api/v1',
    );
    assert.equal(
      new PaykitClient({ ...credentials, baseUrl: 'https://pay.example.com/paykit/api/v1/' }).baseUrl,
      'https://pay.example.com/paykit/api/v1',
    );
  });

  test('production without a baseUrl, and bad options, are refused with a clear error', () => {
    assert.throws(() => new PaykitClient({ ...credentials, environment: 'production' }), {
      message:
        'PaykitClient: production has no default address yet; pass baseUrl, the address of your Paykit service (e.g. "https://pay.example.com").',
    });
    assert.throws(
      () => new PaykitClient({ ...credentials, baseUrl: 'pay.example.com' }),
      /baseUrl must be an absolute http\(s\) URL/,
    );
    assert.throws(() => new PaykitClient({ ...credentials, clientId: '' }), /clientId is required/);
    assert.throws(() => new PaykitClient({ ...credentials, secretKey: '' }), /secretKey is required/);
    assert.throws(() => new PaykitClient({ ...credentials, timeoutMs: 0 }), /timeoutMs must be a positive number/);
    assert.throws(
      () => new PaykitClient({ ...credentials, environment: 'staging' as 'sandbox' }),
      /environment must be "sandbox" or "production"/,
    );
  });
});

describe('what the client sends (recorded by a fetch of our own)', () => {
  interface Sent {
    url: URL;
    method: string;
    headers: Headers;
    body: string | undefined;
  }
  const sent: Sent[] = [];
  const answers: Response[] = [];
  const fetchStub: typeof fetch = async (input, init) => {
    sent.push({
      url: new URL(String(input)),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: init?.body as string | undefined,
    });
    return answers.shift() ?? Response.json({ result: true, message: 'ok', data: [], total: 0 });
  };
  // One attempt per call and no check of the answers: this suite looks at what is sent.
  const paykit = new PaykitClient({
    clientId: 'cli_abc',
    secretKey: 'sk_ünïcode',
    baseUrl: 'https://pay.example.com',
    fetch: fetchStub,
    maxRetries: 0,
    validateAnswers: false,
  });

  test('HTTP Basic from the id and secret; GET fields in the query string, without a body', async () => {
    await paykit.transactions.list('mk_1', { from_date: '2030-01-01', limit: 5, pageNumber: 2 });
    await paykit.customers.list('mk_1', { perPage: 50 });
    await paykit.merchants.createSession({ publicKey: true });
    const [transactions, customers, session] = sent.splice(0);
    assert.equal(
      transactions!.headers.get('authorization'),
      `Basic ${Buffer.from('cli_abc:sk_ünïcode').toString('base64')}`,
    );
    assert.equal(transactions!.method, 'GET');
    assert.equal(transactions!.body, undefined);
    assert.equal(
      transactions!.url.href,
      'https://pay.example.com/api/v1/merchant/transactions?merchant_key=mk_1&from_date=2030-01-01&limit=5&pageNumber=2',
    );
    assert.equal(
      customers!.url.search,
      '?merchant_key=mk_1&page=1&perPage=50',
      'the page asked for, and of the rest only the fields given',
    );
    assert.equal(session!.url.search, '?is_publickey=true');
  });

  test('POST bodies: JSON, the void form-urlencoded; Idempotency-Key only when given; path ids encoded', async () => {
    answers.push(
      Response.json({ result: true, message: 'ok', data: {} }),
      Response.json({ result: true, message: 'ok', data: {} }),
    );
    await paykit.transactions.refund(
      { merchant_key: 'mk_1', transaction_id: 'txn_1', amount: '5.00' },
      { idempotencyKey: 'refund-1' },
    );
    await paykit.transactions.void({ merchant_key: 'mk_1', transaction_id: 'txn_1' });
    answers.push(Response.json({ result: true, message: 'ok', data: {} }));
    await paykit.webhooks.resend('evt_a/b?c');
    const [refund, voided, resend] = sent.splice(0);
    assert.deepEqual(
      [refund!.method, refund!.headers.get('content-type'), refund!.headers.get('idempotency-key')],
      ['POST', 'application/json', 'refund-1'],
    );
    assert.deepEqual(JSON.parse(refund!.body!), { merchant_key: 'mk_1', transaction_id: 'txn_1', amount: '5.00' });
    assert.equal(voided!.headers.get('content-type'), 'application/x-www-form-urlencoded');
    assert.equal(voided!.body, 'merchant_key=mk_1&transaction_id=txn_1');
    assert.equal(voided!.headers.get('idempotency-key'), null, 'no key unless the caller gives one');
    assert.equal(resend!.url.pathname, '/api/v1/client/webhooks/events/evt_a%2Fb%3Fc/resend');
    assert.deepEqual(
      [resend!.body, resend!.headers.get('content-type')],
      [undefined, null],
      'a POST without fields sends no body',
    );
  });

  test('Retry-After (seconds or an HTTP date) is on the error; a body that is not JSON is undefined', async () => {
    const limited = { result: false, message: 'Too many requests: try again in 7 seconds.' };
    answers.push(Response.json(limited, { status: 429, headers: { 'retry-after': '7' } }));
    let error: PaykitError = await failure(paykit.merchants.list(), PaykitRateLimitError);
    assert.deepEqual(
      [error.status, error.message, error.retryAfter, error.body, error.code],
      [429, limited.message, 7, limited, 'rate_limited'],
    );

    answers.push(
      new Response('<html>busy</html>', {
        status: 503,
        statusText: 'Service Unavailable',
        headers: { 'retry-after': new Date(Date.now() + 60_000).toUTCString() },
      }),
    );
    error = await failure(paykit.merchants.list(), PaykitServiceError);
    assert.equal(error.status, 503);
    assert.equal(error.code, 'service_error');
    assert.equal(error.message, 'Paykit answered 503 Service Unavailable to GET /api/v1/merchant.');
    assert.equal(error.body, undefined);
    assert.ok(error.retryAfter! >= 58 && error.retryAfter! <= 60, String(error.retryAfter));

    answers.push(Response.json({ result: false, message: 'Authorization not found' }, { status: 200 }));
    error = await failure(paykit.preauth.capture({ merchant_key: 'mk_1', transaction_id: 'txn_1' }));
    assert.deepEqual(
      [error.status, error.message, error.retryAfter],
      [200, 'Authorization not found', undefined],
      'result: false is a failure whatever the status',
    );
  });
});

describe('PaykitError from the real service', () => {
  let service: TestService;
  let paykit: PaykitClient;
  before(async () => {
    service = await startService();
    paykit = new PaykitClient({
      clientId: service.client.clientId,
      secretKey: service.client.secretKey,
      baseUrl: service.baseUrl,
    });
  });
  after(() => service.close());

  test('401 with a wrong secret, with the service’s message verbatim', async () => {
    const wrong = new PaykitClient({
      clientId: service.client.clientId,
      secretKey: 'sk_wrong',
      baseUrl: service.baseUrl,
    });
    const error = await failure(wrong.merchants.list(), PaykitAuthenticationError);
    const message = 'Invalid credentials: the client id or secret key is wrong.';
    assert.equal(error.code, 'authentication_failed');
    assert.deepEqual(
      [error.status, error.message, error.body, error.retryAfter],
      [401, message, { result: false, message, code: 'authentication_failed' }, undefined],
    );
  });

  test('404 and 400: unknown merchant key, unknown customer, invalid fields', async () => {
    let error: PaykitError = await failure(paykit.customers.list('mk_nope'), PaykitNotFoundError);
    assert.deepEqual([error.status, error.code], [404, 'not_found']);
    assert.equal(error.message, (error.body as { message: string }).message);
    const { merchant_key } = await paykit.merchants.onboard(application());
    error = await failure(paykit.customers.get(merchant_key, 'c_nope'), PaykitNotFoundError);
    assert.deepEqual([error.status, error.message], [404, 'No customer c_nope for this merchant.']);
    error = await failure(paykit.customers.list(merchant_key, { perPage: 500 }), PaykitInvalidRequestError);
    assert.deepEqual(
      [error.status, error.message, error.code],
      [400, 'Invalid request: perPage must be <= 100.', 'invalid_request'],
    );
    error = await failure(
      paykit.sandbox.updateAch({ merchant_key, transaction_id: 'txn_x', new_status: 'maybe' as 'approved' }),
    );
    assert.deepEqual(
      [error.status, error.message],
      [400, 'Invalid request: new_status must be one of: "approved", "declined".'],
    );
  });

  test('a sandbox-only call against a production service: 403', async () => {
    const production = await startService({ environment: 'production' });
    try {
      const client = new PaykitClient({
        clientId: production.client.clientId,
        secretKey: production.client.secretKey,
        environment: 'production',
        baseUrl: production.baseUrl,
      });
      const error = await failure(client.sandbox.messages(), PaykitPermissionError);
      assert.deepEqual(
        [error.status, error.message, error.code],
        [403, 'This call exists in the sandbox only.', 'forbidden'],
      );
    } finally {
      await production.close();
    }
  });
});

describe('no answer: status 0', () => {
  test('a service that does not answer within timeoutMs', async () => {
    const silent = await new Receiver().start();
    silent.fallback = { status: 200, delayMs: 1000 };
    try {
      const paykit = new PaykitClient({
        ...credentials,
        baseUrl: new URL(silent.url).origin,
        timeoutMs: 50,
        maxRetries: 0,
      });
      const started = Date.now();
      const error = await failure(paykit.webhooks.register('https://partner.example/hooks'), PaykitConnectionError);
      assert.deepEqual(
        [error.status, error.message, error.body, error.retryAfter, error.code],
        [0, 'No answer from Paykit within 50 ms', undefined, undefined, 'connection_error'],
      );
      assert.ok(Date.now() - started < 900, 'it gave up at the timeout, not when the answer came');
      // It arrived before the client gave up; the receiver may read it a moment later on a busy machine.
      await silent.waitFor((all) => all.length >= 1, 5000);
      assert.equal(silent.receipts.length, 1, 'the request did arrive, once');
      assert.equal(silent.receipts[0]!.headers['content-type'], 'application/json');
    } finally {
      await silent.stop();
    }
  });

  test('nothing listening', async () => {
    const port = await freePort();
    const paykit = new PaykitClient({ ...credentials, baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 });
    const error = await failure(paykit.merchants.list(), PaykitConnectionError);
    assert.equal(error.status, 0);
    assert.equal(error.message, `Could not reach Paykit at http://127.0.0.1:${port}: ECONNREFUSED`);
    assert.ok(error.cause);
  });
});
