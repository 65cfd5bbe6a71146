import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { startService, type TestService } from '../../support/service.ts';
import { Receiver, type Receipt } from '../../support/receiver.ts';
import { approvedMerchant, partnerClient } from '../../support/payments.ts';
import { EVENT_TYPES } from '../../../server/domain/event-types.ts';
import { PAYKIT_EVENT_TYPES, signTestWebhook, verifyWebhook } from '../../../client/index.ts';
import { signatureHeader } from '../../../server/webhooks/signing.ts';

describe('test events: POST /sandbox/webhooks/trigger and signTestWebhook', () => {
  let service: TestService;
  let receiver: Receiver;
  let secret: string;
  before(async () => {
    service = await startService({ webhooks: { scheduleSeconds: [1], timeoutMs: 1000, pollMs: 50 } });
    receiver = await new Receiver().start();
  });
  after(async () => {
    await service.close();
    await receiver.stop();
  });

  test('without an endpoint the trigger is a 409 that says to register one; an unknown type is a 400 naming the types', async () => {
    const none = await service.api('POST', '/sandbox/webhooks/trigger', { json: { event_type: 'payment.success' } });
    assert.equal(none.status, 409);
    assert.match(none.body.message, /POST \/client\/update-webhooks-url/);
    secret = (await service.api('POST', '/client/update-webhooks-url', { json: { webhook_url: receiver.url } })).body
      .data.signing_secret;
    const unknown = await service.api('POST', '/sandbox/webhooks/trigger', {
      json: { event_type: 'payment.teleported' },
    });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.message, /payment\.success/);
    const stranger = await service.api('POST', '/sandbox/webhooks/trigger', {
      json: { event_type: 'preauth', merchant_id: 'm_not_mine' },
    });
    assert.equal(stranger.status, 404);
  });

  test('every event type is sent, signed as real deliveries are, with the fields the SDK types it with', async () => {
    assert.deepEqual(
      [...EVENT_TYPES].sort(),
      [...PAYKIT_EVENT_TYPES].sort(),
      'the service samples every type the SDK knows',
    );
    const merchant = await approvedMerchant(service);
    const paykit = partnerClient(service);
    const sentIds: string[] = [];
    for (const type of EVENT_TYPES) {
      const sent = await paykit.sandbox.triggerWebhook(type, { merchantId: merchant.merchantId });
      assert.equal(sent.event_type, type);
      sentIds.push(sent.event_id);
    }
    const triggered = (all: Receipt[]) => all.filter((r) => sentIds.includes(r.id));
    const receipts = triggered(await receiver.waitFor((all) => triggered(all).length >= EVENT_TYPES.length));
    assert.deepEqual(receipts.map((r) => r.event.event_type).sort(), [...EVENT_TYPES].sort());
    for (const receipt of receipts) {
      const event = verifyWebhook(receipt.body, receipt.headers, secret);
      assert.equal(event.data.merchant_id, merchant.merchantId);
    }
    // The delivery log lists them as any event.
    for (const id of sentIds) assert.equal((await service.api('GET', `/client/webhooks/events/${id}`)).status, 200);
  });

  test('signTestWebhook signs exactly as the service does: the SDK, the reference library and the service agree', () => {
    const event = {
      event_type: 'payment.success' as const,
      data: {
        transaction_id: 'txn_1',
        merchant_id: 'm_1',
        amount: 25,
        net_amount: 23.97,
        fee_amount: 1.03,
        order_id: 'o-1',
        last_four: '4242',
        brand: 'Visa',
      },
    };
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const { body, headers } = signTestWebhook(event, secret, { id: 'evt_test_1' });
    assert.deepEqual(verifyWebhook(body, headers, secret), event);
    assert.deepEqual(new Webhook(secret).verify(body, headers), event);
    assert.equal(
      headers['webhook-signature'],
      signatureHeader([secret], 'evt_test_1', Number(headers['webhook-timestamp']), body),
    );
    assert.equal(body, JSON.stringify(event));
    // A handler under test refuses a delivery signed with another secret, as it would a forged one.
    assert.throws(
      () => verifyWebhook(body, headers, 'whsec_I2elxQvEglDFZOuq2dBWZKo9n3hhciuH'),
      /No webhook-signature matches/,
    );
  });
});
