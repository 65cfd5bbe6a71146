import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { startService, type TestService } from '../support/service.ts';
import { Receiver, verify as referenceVerify, type Receipt } from '../support/receiver.ts';
import { partnerApplication as application } from '../support/fixtures.ts';
import {
  PAYKIT_EVENT_TYPES,
  PaykitClient,
  verifyWebhook,
  WebhookVerificationError,
  type PaykitEvent,
  type PaykitEventOf,
} from '../../client/index.ts';

const MINUTE = 60_000;

/** Asserts that verification throws a WebhookVerificationError whose message matches. */
function refused(run: () => unknown, message: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof WebhookVerificationError, `expected a WebhookVerificationError, got ${String(error)}`);
    assert.equal(error.name, 'WebhookVerificationError');
    assert.match(error.message, message);
    return true;
  });
}

/** Signs a body as the service does (Standard Webhooks), for the cases a real delivery cannot show. */
function signed(secret: string, body: string, { id = 'evt_test', timestamp = Math.floor(Date.now() / 1000) } = {}) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}` };
}

describe('verifyWebhook', () => {
  let service: TestService;
  let receiver: Receiver;
  let paykit: PaykitClient;
  let secret: string;
  let delivery: Receipt;

  before(async () => {
    service = await startService({ webhooks: { scheduleSeconds: [1, 2], timeoutMs: 2000 } });
    receiver = await new Receiver().start();
    paykit = new PaykitClient({
      clientId: service.client.clientId,
      secretKey: service.client.secretKey,
      baseUrl: service.baseUrl,
    });
    secret = (await paykit.webhooks.register(receiver.url)).signing_secret;
    const { merchant_id } = await paykit.merchants.onboard(application());
    await paykit.merchants.approve(merchant_id);
    const receipts = await receiver.waitFor((all) => all.some((r) => r.event.event_type === 'merchant.approval'));
    delivery = receipts.find((r) => r.event.event_type === 'merchant.approval')!;
  });
  after(async () => {
    await service.close();
    await receiver.stop();
  });

  test('accepts a real delivery and returns its typed event, as the reference implementation does', () => {
    const event: PaykitEvent = verifyWebhook(delivery.body, delivery.headers, secret);
    assert.ok(PAYKIT_EVENT_TYPES.includes(event.event_type));
    if (event.event_type !== 'merchant.approval')
      return assert.fail(`expected merchant.approval, got ${event.event_type}`);
    const approval: PaykitEventOf<'merchant.approval'> = event;
    assert.deepEqual(Object.keys(approval.data).sort(), ['business_name', 'company_id', 'email', 'merchant_id']);
    assert.equal(approval.data.business_name, 'Blue Bottle Cafe');
    assert.deepEqual(event, delivery.event);
    assert.deepEqual(event, referenceVerify(secret, delivery));
  });

  test('takes a Buffer body, fetch Headers, a secret without whsec_, and the static PaykitClient.verifyWebhook', () => {
    const headers = new Headers();
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'])
      headers.set(name, String(delivery.headers[name]));
    assert.deepEqual(verifyWebhook(Buffer.from(delivery.body), headers, secret), delivery.event);
    assert.deepEqual(
      PaykitClient.verifyWebhook(delivery.body, delivery.headers, secret.slice('whsec_'.length)),
      delivery.event,
    );
    const shouting = Object.fromEntries(
      Object.entries(delivery.headers).map(([name, value]) => [name.toUpperCase(), value]),
    );
    assert.deepEqual(verifyWebhook(delivery.body, shouting, secret), delivery.event);
  });

  test('refuses a tampered body', () => {
    const tampered = delivery.body.replace('Blue Bottle Cafe', 'Blue Bottle Cafd');
    assert.notEqual(tampered, delivery.body);
    refused(
      () => verifyWebhook(tampered, delivery.headers, secret),
      /^No webhook-signature matches: the body was changed after signing/,
    );
    refused(
      () => verifyWebhook(JSON.stringify(JSON.parse(delivery.body), null, 2), delivery.headers, secret),
      /^No webhook-signature matches/,
    );
  });

  test('refuses an old timestamp (10 minutes later), and one from the future; the tolerance is adjustable', () => {
    const sentAt = Number(delivery.headers['webhook-timestamp']) * 1000;
    refused(
      () => verifyWebhook(delivery.body, delivery.headers, secret, { now: new Date(sentAt + 10 * MINUTE) }),
      /^The webhook-timestamp is 600 seconds old, more than the 300 allowed/,
    );
    refused(
      () => verifyWebhook(delivery.body, delivery.headers, secret, { now: sentAt - 10 * MINUTE }),
      /^The webhook-timestamp is 600 seconds in the future/,
    );
    assert.deepEqual(
      verifyWebhook(delivery.body, delivery.headers, secret, { now: sentAt + 10 * MINUTE, toleranceSeconds: 3600 }),
      delivery.event,
    );
    // A replayed timestamp cannot be freshened: the signature covers it.
    const fresh = { ...delivery.headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) + 1) };
    refused(() => verifyWebhook(delivery.body, fresh, secret), /^No webhook-signature matches/);
  });

  test('refuses a wrong secret, and a secret that is not one', () => {
    const other = `whsec_${randomBytes(24).toString('base64')}`;
    refused(
      () => verifyWebhook(delivery.body, delivery.headers, other),
      /^No webhook-signature matches: .*not the secret of this endpoint\.$/,
    );
    refused(() => verifyWebhook(delivery.body, delivery.headers, ''), /^No signing secret given/);
    refused(
      () => verifyWebhook(delivery.body, delivery.headers, 'whsec_not base64!'),
      /^The signing secret is not a whsec_… secret/,
    );
  });

  test('refuses missing headers, naming them', () => {
    const { 'webhook-signature': _signature, ...unsigned } = delivery.headers;
    refused(() => verifyWebhook(delivery.body, unsigned, secret), /^Missing webhook-signature header: /);
    refused(
      () => verifyWebhook(delivery.body, {}, secret),
      /^Missing webhook-id, webhook-timestamp, webhook-signature headers: /,
    );
    refused(
      () => verifyWebhook(delivery.body, { ...delivery.headers, 'webhook-timestamp': 'yesterday' }, secret),
      /^The webhook-timestamp header must be Unix seconds/,
    );
  });

  test('accepts any one of several signatures; ignores other versions; refuses a body that is not an event', () => {
    const body =
      '{"event_type":"preauth","data":{"merchant_id":"m_1","guid":"txn_1","amount":30,"order_id":"o-1","customer_id":0}}';
    const headers = signed(secret, body);
    const other = signed(`whsec_${randomBytes(24).toString('base64')}`, body)['webhook-signature'];
    const many = { ...headers, 'webhook-signature': `v1a,AAAA ${other} ${headers['webhook-signature']}` };
    const event = verifyWebhook(body, many, secret);
    assert.equal(event.event_type, 'preauth');
    if (event.event_type === 'preauth') assert.equal(event.data.customer_id, 0);
    refused(
      () => verifyWebhook(body, { ...headers, 'webhook-signature': other }, secret),
      /^No webhook-signature matches/,
    );

    for (const bad of ['[1,2]', '{"event_type":"x"}', 'not json']) {
      refused(() => verifyWebhook(bad, signed(secret, bad), secret), /^The signed body is not (JSON|a Paykit event)/);
    }
  });
});
