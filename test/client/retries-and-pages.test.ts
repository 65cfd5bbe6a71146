import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServiceProcess, type ServiceProcess } from '../support/process.ts';
import { FaultProxy } from '../support/fault-proxy.ts';
import { partnerApplication } from '../support/fixtures.ts';
import { TEST_CARD } from '../support/payments.ts';
import {
  PaykitCardDeclinedError,
  PaykitClient,
  PaykitConflictError,
  PaykitConnectionError,
  PaykitError,
  PaykitIdempotencyError,
  PaykitRateLimitError,
  PaykitServiceError,
} from '../../client/index.ts';

const credentials = { PAYKIT_CLIENT_ID: 'retry_partner', PAYKIT_CLIENT_SECRET: 'retry-secret-0123456789' };

async function rejection<E extends PaykitError>(
  promise: PromiseLike<unknown>,
  kind: new (...args: never[]) => E,
): Promise<E> {
  const error = await Promise.resolve(promise).then(
    () => assert.fail('expected the call to fail'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof kind, `expected a ${kind.name}, got ${String(error)}`);
  return error as E;
}

describe('paykit/client against a real service that fails on purpose', () => {
  let service: ServiceProcess;
  let proxy: FaultProxy;
  let paykit: PaykitClient;
  let merchantKey: string;
  before(async () => {
    service = await startServiceProcess({ ...credentials, PAYKIT_DATA_DIR: 'memory' });
    proxy = await new FaultProxy(service.baseUrl).start();
    paykit = new PaykitClient({
      clientId: credentials.PAYKIT_CLIENT_ID,
      secretKey: credentials.PAYKIT_CLIENT_SECRET,
      baseUrl: proxy.url,
    });
    const onboarded = await paykit.merchants.onboard(partnerApplication());
    await paykit.merchants.approve(onboarded.merchant_id);
    merchantKey = onboarded.merchant_key;
  });
  after(async () => {
    await proxy.stop();
    await service.stop();
  });

  const customers = async () => (await paykit.customers.list(merchantKey)).totalCount;
  const newCustomer = (last: string) => ({
    merchant_key: merchantKey,
    first_name: 'Rita',
    last_name: last,
    email: 'rita@example.com',
  });

  test('a POST whose answer is lost is retried with the same Idempotency-Key, and has one effect', async () => {
    const before = await customers();
    proxy.seen.length = 0;
    proxy.faults = [{ drop: 'after' }, { drop: 'before' }];
    const added = await paykit.customers.add(newCustomer('Lost'));
    assert.match(added.customer_id, /^c_/);
    const posts = proxy.seen.filter((s) => s.method === 'POST');
    assert.equal(posts.length, 3, 'three attempts: lost after the work, lost before it, answered');
    const keys = new Set(posts.map((s) => s.headers['idempotency-key']));
    assert.equal(keys.size, 1, 'one key for the whole call');
    assert.match(String([...keys][0]), /^paykit-[0-9a-f-]{36}$/);
    assert.equal(await customers(), before + 1, 'one customer, though the service was asked twice');
  });

  test('backoff: a 429 waits its Retry-After, a 503 the exponential delay; a caller’s own key is kept', async () => {
    proxy.seen.length = 0;
    proxy.faults = [{ status: 429, retryAfter: '1', code: 'rate_limited' }, { status: 503 }];
    await paykit.customers.add(newCustomer('Patient'), { idempotencyKey: 'my-own-key-1' });
    const [first, second, third] = proxy.seen;
    assert.ok(second!.at - first!.at >= 950, `waited the Retry-After (${second!.at - first!.at} ms)`);
    assert.ok(third!.at - second!.at >= 240, `then at least half of 500 ms (${third!.at - second!.at} ms)`);
    assert.deepEqual(
      proxy.seen.map((s) => s.headers['idempotency-key']),
      ['my-own-key-1', 'my-own-key-1', 'my-own-key-1'],
    );
  });

  test('a 409 still in progress is retried after its Retry-After; other refusals are not retried', async () => {
    proxy.seen.length = 0;
    proxy.faults = [{ status: 409, retryAfter: '1', code: 'conflict' }];
    await paykit.customers.add(newCustomer('Waiting'));
    assert.equal(proxy.seen.length, 2);

    proxy.seen.length = 0;
    const orderId = `retry-${Date.now()}`;
    await paykit.payments.request({ merchant_key: merchantKey, amount: '3.00', order_id: orderId });
    const taken = await rejection(
      paykit.payments.request({ merchant_key: merchantKey, amount: '3.00', order_id: orderId }),
      PaykitConflictError,
    );
    assert.equal(taken.code, 'conflict');
    await rejection(paykit.customers.get(merchantKey, 'c_nope'), PaykitError);
    assert.equal(proxy.seen.length, 3, 'each refusal was asked once');
  });

  test('retries run out: the last failure is thrown after maxRetries + 1 attempts; maxRetries 0 tries once and sends no key', async () => {
    const twice = new PaykitClient({
      clientId: credentials.PAYKIT_CLIENT_ID,
      secretKey: credentials.PAYKIT_CLIENT_SECRET,
      baseUrl: proxy.url,
      maxRetries: 1,
    });
    proxy.seen.length = 0;
    proxy.faults = [{ status: 502 }, { status: 503 }];
    const error = await rejection(twice.merchants.list(), PaykitServiceError);
    assert.deepEqual([error.status, proxy.seen.length], [503, 2]);
    proxy.seen.length = 0;
    proxy.faults = [{ status: 500 }];
    await rejection(paykit.customers.add(newCustomer('Once'), { maxRetries: 0 }), PaykitServiceError);
    assert.deepEqual([proxy.seen.length, proxy.seen[0]!.headers['idempotency-key']], [1, undefined]);
  });

  test('a per-request timeout and an AbortSignal', async () => {
    proxy.faults = [{ delayMs: 400 }];
    const started = Date.now();
    const late = await rejection(paykit.merchants.list({ timeout: 100, maxRetries: 0 }), PaykitConnectionError);
    assert.equal(late.message, 'No answer from Paykit within 100 ms');
    assert.ok(Date.now() - started < 350);

    const controller = new AbortController();
    proxy.faults = [{ status: 503, retryAfter: '5' }];
    const call = paykit.merchants.list({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('the shopper left')), 200);
    const abandoned = await Promise.resolve(call).then(
      () => assert.fail('aborted'),
      (e: unknown) => e,
    );
    assert.equal(
      (abandoned as Error).message,
      'the shopper left',
      'the call rejects with the signal’s reason, without waiting out the backoff',
    );
    proxy.faults = [];
  });

  test('error classes by kind: card declined, idempotency key reused', async () => {
    const link = await paykit.payments.request({
      merchant_key: merchantKey,
      amount: '4.00',
      order_id: `dec-${Date.now()}`,
    });
    const declined = await rejection(
      paykit.sandbox.pay({ pay_link: link.pay_link, method: 'card', ...TEST_CARD, card_number: '4000000000000002' }),
      PaykitCardDeclinedError,
    );
    assert.deepEqual([declined.status, declined.code], [402, 'card_declined']);
    await paykit.customers.add(newCustomer('Keyed'), { idempotencyKey: 'reused-key-1' });
    const reused = await rejection(
      paykit.customers.add(newCustomer('Other'), { idempotencyKey: 'reused-key-1' }),
      PaykitIdempotencyError,
    );
    assert.equal(reused.code, 'idempotency_key_reused');
    proxy.faults = Array.from({ length: 3 }, () => ({ status: 429, retryAfter: '0', code: 'rate_limited' }));
    await rejection(paykit.merchants.list(), PaykitRateLimitError);
  });

  test('every list pages the same way: for await over more than three pages, and a page at a time', async () => {
    for (let i = 0; i < 7; i++) await paykit.customers.add(newCustomer(`Paged ${i}`));
    for (let i = 0; i < 7; i++) {
      const link = await paykit.payments.request({
        merchant_key: merchantKey,
        amount: `${i + 1}.00`,
        order_id: `page-${Date.now()}-${i}`,
      });
      await paykit.sandbox.pay({ pay_link: link.pay_link, method: 'card', ...TEST_CARD });
      const hold = await paykit.payments.request({
        merchant_key: merchantKey,
        amount: `${i + 1}.50`,
        order_id: `hold-${Date.now()}-${i}`,
        preauth: true,
      });
      await paykit.sandbox.pay({ pay_link: hold.pay_link, method: 'card', ...TEST_CARD });
    }
    proxy.seen.length = 0;
    const all = async <T>(list: AsyncIterable<T>) => {
      const items: T[] = [];
      for await (const item of list) items.push(item);
      return items;
    };
    const everyCustomer = await all(paykit.customers.list({ merchant_key: merchantKey, perPage: 2 }));
    assert.equal(everyCustomer.length, await customers());
    assert.ok(everyCustomer.length >= 7);
    assert.equal(new Set(everyCustomer.map((c) => c.customer_id)).size, everyCustomer.length, 'no customer twice');
    const everySale = await all(paykit.transactions.list({ merchant_key: merchantKey, perPage: 2 }));
    assert.equal(everySale.length, (await paykit.transactions.list(merchantKey)).total);
    const everyHold = await all(paykit.preauth.list(merchantKey, { perPage: 2 }));
    assert.equal(everyHold.length, 7);
    const everyEvent = await all(paykit.webhooks.deliveries({ perPage: 2 }));
    assert.equal(everyEvent.length, (await paykit.webhooks.deliveries()).totalCount);
    assert.ok(everyEvent.length > 6);
    for (const path of [
      '/api/v1/customers',
      '/api/v1/merchant/transactions',
      '/api/v1/preauth',
      '/api/v1/client/webhooks/events',
    ]) {
      assert.ok(proxy.seen.filter((s) => s.path.startsWith(`${path}?`)).length > 3, `${path}: more than three pages`);
      assert.ok(
        proxy.seen.filter((s) => s.path.startsWith(`${path}?`) && /[?&]cursor=/.test(s.path)).length > 2,
        `${path}: the pages after the first by cursor`,
      );
    }

    const pages = [];
    for await (const page of paykit.customers.list(merchantKey, { perPage: 3 }).pages())
      pages.push(page.allList.length);
    assert.deepEqual(
      pages.slice(0, -1).every((n) => n === 3),
      true,
    );
    const second = await paykit.transactions.list(merchantKey, { page: 2, perPage: 2 });
    assert.equal(second.items.length, 2);
    assert.deepEqual(
      second.items.map((t) => t.transaction_id),
      everySale.slice(2, 4).map((t) => t.transaction_id),
      'page 2 is the third and fourth',
    );
    assert.ok(second.has_more && second.next_cursor);
    const third = await paykit.transactions.list(merchantKey, { perPage: 2, cursor: second.next_cursor });
    assert.deepEqual(
      third.items.map((t) => t.transaction_id),
      everySale.slice(4, 6).map((t) => t.transaction_id),
      'from a saved cursor, the page after it',
    );
  });
});

describe('answers are checked against their schemas in development', () => {
  const drifted: typeof fetch = async () =>
    Response.json({ result: true, message: 'ok', data: { customer_id: 'c_1', customer_email: 7, customer_phone: '' } });
  const options = {
    clientId: 'cli_x',
    secretKey: 'sk_x',
    baseUrl: 'http://127.0.0.1:9',
    fetch: drifted,
    maxRetries: 0,
  };

  test('a drifted answer is an error, not an undefined field', async () => {
    const error = await rejection(new PaykitClient(options).customers.get('mk_1', 'c_1'), PaykitServiceError);
    assert.equal(error.code, 'unexpected_answer');
    assert.match(
      error.message,
      /something the client is not typed for: the answer\.data\.customer_email is number, not a string/,
    );
  });

  test('off with validateAnswers: false, and by default when NODE_ENV is production', async () => {
    assert.equal(
      (await new PaykitClient({ ...options, validateAnswers: false }).customers.get('mk_1', 'c_1')).customer_email,
      7,
    );
    const was = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      assert.equal((await new PaykitClient(options).customers.get('mk_1', 'c_1')).customer_id, 'c_1');
    } finally {
      if (was === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = was;
    }
  });
});
