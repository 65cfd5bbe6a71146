import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startService, type TestService } from '../support/service.ts';
import { Receiver } from '../support/receiver.ts';
import { partnerApplication as application } from '../support/fixtures.ts';
import { nextOrderId, TEST_CARD } from '../support/payments.ts';
import {
  PaykitClient,
  PaykitError,
  verifyWebhook,
  type Customer,
  type OnboardingResult,
  type PaykitEvent,
  type Reversal,
  type TransactionList,
} from '../../client/index.ts';

/** Asserts that `promise` rejects with a PaykitError of this status and exactly this message; returns it. */
async function paykitError(promise: Promise<unknown>, status: number, message: string | RegExp): Promise<PaykitError> {
  let caught: unknown;
  await assert.rejects(promise, (error) => {
    caught = error;
    return true;
  });
  assert.ok(caught instanceof PaykitError, `expected a PaykitError, got ${String(caught)}`);
  assert.equal(caught.status, status, caught.message);
  if (typeof message === 'string') assert.equal(caught.message, message);
  else assert.match(caught.message, message);
  return caught;
}

const ACH = { method: 'ach', routing_number: '110000000', account_number: '000123456789', name: 'Ann Lee' } as const;

/**
 * A partner's whole journey through `paykit/client` against the real service, every method at least once:
 * onboarding, customers, pay links, refunds and voids, preauthorizations, ACH, QR, stored-customer charges,
 * widgets, the sandbox helpers and webhooks (with deliveries to a loopback receiver, verified by the client).
 */
describe('paykit/client: a partner journey against the real service', () => {
  let service: TestService;
  let receiver: Receiver;
  let paykit: PaykitClient;
  let secret: string;
  let merchant: OnboardingResult;
  let customer: Customer;
  const card = { method: 'card', ...TEST_CARD } as const;

  before(async () => {
    service = await startService({ webhooks: { scheduleSeconds: [1, 2], timeoutMs: 2000 } });
    receiver = await new Receiver().start();
    paykit = new PaykitClient({
      clientId: service.client.clientId,
      secretKey: service.client.secretKey,
      baseUrl: service.baseUrl,
    });
  });
  after(async () => {
    await service.close();
    await receiver.stop();
  });

  test('webhooks.register and webhooks.get: the URL and its signing secret', async () => {
    const registration = await paykit.webhooks.register(receiver.url);
    assert.equal(registration.webhook_url, receiver.url);
    assert.match(registration.signing_secret, /^whsec_/);
    secret = registration.signing_secret;
    const endpoint = await paykit.webhooks.get();
    assert.deepEqual(
      [
        endpoint.webhook_url,
        endpoint.signing_secret,
        endpoint.enabled,
        endpoint.disabled_reason,
        endpoint.previous_secret_expires_at,
      ],
      [receiver.url, secret, true, null, null],
    );
  });

  test('merchants: onboard, list, status, approve; the hosted onboarding session and link', async () => {
    merchant = await paykit.merchants.onboard(application());
    assert.match(merchant.merchant_key, /^mk_/);
    assert.match(merchant.public_key, /^pk_/);
    assert.match(merchant.merchant_id, /^m_/);
    assert.equal(merchant.businessname, 'Blue Bottle Cafe');

    const listed = await paykit.merchants.list();
    const mine = listed.find((m) => m.merchant_id === merchant.merchant_id);
    assert.ok(mine, 'the new merchant is listed');
    assert.equal(mine.public_data.public_key, merchant.public_key);
    assert.ok(!Number.isNaN(Date.parse(mine.join_date)));

    assert.deepEqual(await paykit.merchants.onboardingStatus(merchant.merchant_key), { merchantStatus: 'pending' });
    assert.equal(await paykit.merchants.approve(merchant.merchant_id), undefined);
    assert.deepEqual(await paykit.merchants.onboardingStatus(merchant.merchant_key), { merchantStatus: 'completed' });
    await paykit.merchants.approve(merchant.merchant_id).then(
      () => assert.fail('approving twice must fail'),
      (error: unknown) => {
        assert.ok(error instanceof PaykitError);
        assert.deepEqual([error.status, error.message], [409, `Merchant ${merchant.merchant_id} is already approved.`]);
        assert.deepEqual(error.body, { result: false, status: false, message: error.message, code: 'conflict' });
      },
    );

    const plain = await paykit.merchants.createSession();
    assert.equal(plain.public_key, undefined);
    const session = await paykit.merchants.createSession({ publicKey: true });
    assert.match(session.public_key ?? '', /^pk_client_/);
    assert.ok(session.sessionToken.length > 10);
    const hosted = await paykit.merchants.startHostedOnboarding(session.sessionToken, {
      company_id: 'acme-42',
      BusinessInfo: { business_name: 'Acme Bikes', business_country: 'US' },
    });
    assert.equal(hosted.company_id, 'acme-42');
    assert.match(hosted.merchant_id, /^m_/);
    assert.equal(new URL(hosted.onboarding_link).origin, service.baseUrl);
    assert.ok(Date.parse(hosted.expires_at) > Date.now());
  });

  test('customers: add, list a page, get', async () => {
    customer = await paykit.customers.add({
      merchant_key: merchant.merchant_key,
      first_name: 'Ann',
      last_name: 'Lee',
      email: 'Ann@Example.com',
      phone_number: '+14155550123',
    });
    assert.match(customer.customer_id, /^c_/);
    assert.deepEqual([customer.customer_email, customer.customer_phone], ['ann@example.com', '+14155550123']);
    await paykit.customers.add({
      merchant_key: merchant.merchant_key,
      first_name: 'Bo',
      last_name: 'Kim',
      email: 'bo@example.com',
    });

    const page = await paykit.customers.list(merchant.merchant_key, { page: 2, perPage: 1 });
    assert.deepEqual([page.page, page.perPage, page.totalCount, page.totalPage, page.allList.length], [2, 1, 2, 2, 1]);
    assert.equal(page.allList[0]!.customer_id, customer.customer_id, 'newest first: Ann is on page 2');
    assert.equal(page.allList[0]!.first_name, 'Ann');
    assert.equal((await paykit.customers.list(merchant.merchant_key)).perPage, 20);
    assert.deepEqual(await paykit.customers.get(merchant.merchant_key, customer.customer_id), customer);
  });

  test('a pay link texted, paid, listed, read, partly refunded, over-refunded; another sale voided', async () => {
    const orderId = nextOrderId();
    const link = await paykit.payments.request({
      merchant_key: merchant.merchant_key,
      amount: '40.00',
      order_id: orderId,
      phone_number: '+14155550123',
    });
    assert.equal(link.order_id, orderId);
    assert.match(link.link_id, /^\w+_/);
    const [sms] = await paykit.sandbox.messages();
    assert.deepEqual([sms!.channel, sms!.recipient, sms!.pay_link], ['sms', '+14155550123', link.pay_link]);

    const paid = await paykit.sandbox.pay({ pay_link: link.pay_link, ...card });
    assert.equal(paid.status, 'approved');
    assert.match(paid.transaction_id, /^txn_/);

    const listed: TransactionList = await paykit.transactions.list(merchant.merchant_key, { limit: 10, pageNumber: 1 });
    assert.ok(listed.total >= 1);
    const item = listed.items.find((t) => t.transaction_id === paid.transaction_id);
    assert.ok(item);
    assert.deepEqual(
      [item.amount, item.fee_percentage, item.other_details.last_four, item.type, item.status],
      ['40.00', '2.9000000', '4242', 'sale', 'completed'],
    );
    const today = new Date().toISOString().slice(0, 10);
    const byDate = await paykit.transactions.list(merchant.merchant_key, {
      from_date: '2000-01-01',
      to_date: '2000-01-02',
    });
    assert.deepEqual(byDate, { items: [], total: 0, next_cursor: null, has_more: false });
    assert.ok(
      (await paykit.transactions.list(merchant.merchant_key, { from_date: today, limit: '1' })).items.length === 1,
    );

    const one = await paykit.transactions.get(merchant.merchant_key, paid.transaction_id);
    assert.equal(one.transaction_id, paid.transaction_id);
    assert.deepEqual(
      [one.amount, one.other_details.lastFourDigits, one.other_details.cardType],
      ['40.00', '4242', item.other_details.card_brand],
    );
    assert.equal(typeof one.net_amount, 'number');

    const refund: Reversal = await paykit.transactions.refund({
      merchant_key: merchant.merchant_key,
      transaction_id: paid.transaction_id,
      amount: '15.00',
    });
    assert.deepEqual(
      [refund.type, refund.Status, refund.amount, refund.sales_id],
      ['Refund', 'Success', 15, refund.transaction_id],
    );
    assert.notEqual(refund.transaction_id, paid.transaction_id);
    await paykitError(
      paykit.transactions.refund({
        merchant_key: merchant.merchant_key,
        transaction_id: paid.transaction_id,
        amount: '30.00',
      }),
      400,
      'The amount should not be greater than the remaining amount.',
    );
    assert.equal((await paykit.transactions.get(merchant.merchant_key, paid.transaction_id)).refunded_amount, '15.00');

    const other = await paykit.payments.request({
      merchant_key: merchant.merchant_key,
      amount: '5.00',
      order_id: nextOrderId(),
    });
    const sale = await paykit.sandbox.pay({ pay_link: other.pay_link, ...card });
    const voided = await paykit.transactions.void({
      merchant_key: merchant.merchant_key,
      transaction_id: sale.transaction_id,
    });
    assert.deepEqual(
      [voided.type, voided.Status, voided.linked_txn_id, voided.amount],
      ['Void', 'Success', sale.transaction_id, 5],
    );
    assert.equal((await paykit.transactions.get(merchant.merchant_key, sale.transaction_id)).status, 'voided');
  });

  test('preauthorizations: raise, capture; another one voided', async () => {
    const hold = async (amount: string) => {
      const link = await paykit.payments.request({
        merchant_key: merchant.merchant_key,
        amount,
        order_id: nextOrderId(),
        preauth: true,
      });
      const paid = await paykit.sandbox.pay({ pay_link: link.pay_link, ...card });
      assert.equal(paid.status, 'authorized');
      return { id: paid.transaction_id, orderId: link.order_id };
    };
    const auth = await hold('30.00');
    const raised = await paykit.preauth.update({
      merchant_key: merchant.merchant_key,
      transaction_id: auth.id,
      last_authorized_amount: '30.00',
      new_authorized_amount: '45.00',
    });
    assert.deepEqual(raised, {
      transaction_id: auth.id,
      order_id: auth.orderId,
      previous_amount: '30.00',
      authorized_amount: '45.00',
      change: 'increment',
    });
    await paykitError(
      paykit.preauth.update({
        merchant_key: merchant.merchant_key,
        transaction_id: auth.id,
        last_authorized_amount: '30.00',
        new_authorized_amount: '20.00',
      }),
      409,
      /^Amount mismatch/,
    );
    const captured = await paykit.preauth.capture({ merchant_key: merchant.merchant_key, transaction_id: auth.id });
    assert.deepEqual(
      [captured.Status, captured.amount, captured.Authorized, captured.Account, captured.orderid],
      ['Approved', '45.00', 45, '4242', auth.orderId],
    );
    assert.match(captured.transaction_id, /^txn_/);
    assert.equal((await paykit.transactions.get(merchant.merchant_key, captured.transaction_id)).amount, '45.00');

    const released = await hold('12.00');
    const voided = await paykit.preauth.void({ merchant_key: merchant.merchant_key, transaction_id: released.id });
    assert.deepEqual(voided, {
      transaction_id: released.id,
      order_id: released.orderId,
      amount: '12.00',
      Status: 'Voided',
    });
    await paykitError(
      paykit.preauth.capture({ merchant_key: merchant.merchant_key, transaction_id: 'txn_nope' }),
      404,
      'Authorization not found',
    );
  });

  test('ACH: pending until sandbox.updateAch approves it', async () => {
    const link = await paykit.payments.request({
      merchant_key: merchant.merchant_key,
      amount: '9.00',
      order_id: nextOrderId(),
    });
    const paid = await paykit.sandbox.pay({ pay_link: link.pay_link, ...ACH });
    assert.equal(paid.status, 'pending');
    assert.equal((await paykit.transactions.get(merchant.merchant_key, paid.transaction_id)).status, 'pending');
    assert.equal(
      await paykit.sandbox.updateAch({
        merchant_key: merchant.merchant_key,
        transaction_id: paid.transaction_id,
        new_status: 'approved',
      }),
      undefined,
    );
    const read = await paykit.transactions.get(merchant.merchant_key, paid.transaction_id);
    assert.deepEqual([read.status, read.method, read.fee_percentage], ['completed', 'ach', '0.8000000']);
  });

  test('a QR link paid; a stored customer asked to pay, then charged again', async () => {
    const qr = await paykit.payments.qrLink({
      merchant_key: merchant.merchant_key,
      amount: '12.00',
      order_id: nextOrderId(),
    });
    assert.match(qr.qr_code_link, /\/pay\/pl_[\w-]+\/qr\.png$/);
    assert.match(qr.sales_id, /^txn_/);
    const viaQr = await paykit.sandbox.pay({ pay_link: qr.qr_code_link, ...card });
    assert.equal(viaQr.transaction_id, qr.sales_id, 'the sale takes the id reserved by the QR link');

    const asked = await paykit.payments.requestFromCustomer(customer.customer_id, {
      merchant_key: merchant.merchant_key,
      amount: '10.00',
      order_id: nextOrderId(),
    });
    assert.match(asked.sales_id, /^txn_/);
    const [sms] = await paykit.sandbox.messages();
    assert.equal(sms!.pay_link, asked.pay_link, 'the customer was texted the link');
    await paykit.sandbox.pay({ pay_link: asked.pay_link, ...card });

    const charged = await paykit.customers.charge(customer.customer_id, {
      merchant_key: merchant.merchant_key,
      amount: 25.5,
      order_id: nextOrderId(),
    });
    assert.deepEqual(Object.keys(charged), ['transaction_id']);
    assert.match(charged.transaction_id, /^txn_/);
    const sale = await paykit.transactions.get(merchant.merchant_key, charged.transaction_id);
    assert.deepEqual([sale.amount, sale.status, sale.other_details.lastFourDigits], ['25.50', 'completed', '4242']);
    await paykitError(
      paykit.customers.charge(customer.customer_id, {
        merchant_key: merchant.merchant_key,
        amount: '0',
        order_id: nextOrderId(),
      }),
      400,
      'amount must be more than zero: send the amount to move, such as "25.00".',
    );
  });

  test('widgets: a session token for the transactions table, and the settings', async () => {
    const session = await paykit.widgets.createSession(merchant.merchant_key);
    assert.match(session.session_token, /^wst_/);
    const lifetime = Date.parse(session.expires_at) - service.clock.now().getTime();
    assert.ok(lifetime > 14 * 60_000 && lifetime <= 15 * 60_000, `15 minutes (${lifetime} ms)`);
    const settings = await paykit.widgets.updateSettings({
      merchant_key: merchant.merchant_key,
      button_label: 'Pay now',
      primary_color: '#0a7',
      allowed_origins: ['https://shop.example'],
    });
    assert.deepEqual(settings, {
      button_label: 'Pay now',
      primary_color: '#0a7',
      text_color: '#ffffff',
      allowed_origins: ['https://shop.example'],
      receipts_enabled: true,
      logo: null,
    });
  });

  test('the sandbox clock and settlement: a settled sale can no longer be voided', async () => {
    const link = await paykit.payments.request({
      merchant_key: merchant.merchant_key,
      amount: '7.00',
      order_id: nextOrderId(),
    });
    const sale = await paykit.sandbox.pay({ pay_link: link.pay_link, ...card });
    const before = service.clock.now().getTime();
    const moved = await paykit.sandbox.advanceClock(2);
    assert.ok(Date.parse(moved.now) - before >= 2 * 3_600_000);
    const { settled } = await paykit.sandbox.settle(merchant.merchant_key);
    assert.ok(settled >= 1, `settled ${settled}`);
    assert.equal((await paykit.transactions.get(merchant.merchant_key, sale.transaction_id)).settled, true);
    await paykitError(
      paykit.transactions.void({ merchant_key: merchant.merchant_key, transaction_id: sale.transaction_id }),
      409,
      'The transaction has been settled, a void is not allowed.',
    );
  });

  test('an Idempotency-Key replays the first answer; without one, nothing is sent and a retry is a new request', async () => {
    const key = randomUUID();
    const body = { merchant_key: merchant.merchant_key, amount: '11.00', order_id: nextOrderId() };
    const first = await paykit.payments.request(body, { idempotencyKey: key });
    const again = await paykit.payments.request(body, { idempotencyKey: key });
    assert.deepEqual(again, first, 'the same link, not a second one');
    await paykitError(
      paykit.payments.request({ ...body, amount: '12.00' }, { idempotencyKey: key }),
      422,
      'This Idempotency-Key was already used with a different request: use a new key for a new request.',
    );
    const reused = await paykitError(paykit.payments.request(body), 409, /order_id/);
    assert.deepEqual(reused.body, { result: false, message: reused.message, code: 'conflict' });

    const customers = (await paykit.customers.list(merchant.merchant_key)).totalCount;
    const added = await paykit.customers.add(
      { merchant_key: merchant.merchant_key, first_name: 'Cy', last_name: 'Day', email: 'cy@example.com' },
      { idempotencyKey: key + '-c' },
    );
    const replayed = await paykit.customers.add(
      { merchant_key: merchant.merchant_key, first_name: 'Cy', last_name: 'Day', email: 'cy@example.com' },
      { idempotencyKey: key + '-c' },
    );
    assert.equal(replayed.customer_id, added.customer_id);
    assert.equal((await paykit.customers.list(merchant.merchant_key)).totalCount, customers + 1);
  });

  test('webhooks: deliveries arrive and verify; the log, one delivery, a resend, a rotation', async () => {
    const expected = [
      'merchant.onboarding',
      'merchant.approval',
      'payment.success',
      'payment.refund',
      'payment.void',
      'preauth',
      'preauth.increment',
      'preauth.charge',
      'ach.update',
    ];
    const receipts = await receiver.waitFor((all) =>
      expected.every((type) => all.some((r) => r.event.event_type === type)),
    );
    for (const receipt of receipts) {
      const event: PaykitEvent = verifyWebhook(receipt.body, receipt.headers, secret);
      assert.deepEqual(event, receipt.event);
    }
    const refund = receipts.find((r) => r.event.event_type === 'payment.refund')!;
    const event = PaykitClient.verifyWebhook(refund.body, refund.headers, secret);
    assert.equal(event.event_type, 'payment.refund');
    if (event.event_type === 'payment.refund') assert.deepEqual([event.data.type, event.data.amount], ['Refund', 15]);

    const delivered = await paykit.webhooks.deliveries();
    assert.ok(delivered.totalCount >= expected.length);
    const log = await paykit.webhooks.deliveries({ status: 'delivered', page: 1, perPage: 100 });
    assert.deepEqual([log.page, log.perPage], [1, 100]);
    const summary = log.items.find((d) => d.event_id === refund.id);
    assert.ok(summary, 'the refund is in the delivered log');
    assert.deepEqual(
      [summary.event_type, summary.delivery_status, summary.next_attempt_at],
      ['payment.refund', 'delivered', null],
    );

    const one = await paykit.webhooks.delivery(refund.id);
    assert.deepEqual(one.data, refund.event.data);
    assert.deepEqual([one.attempt_log[0]!.status_code, one.attempt_log[0]!.url], [200, receiver.url]);
    const seen = receiver.receipts.filter((r) => r.id === refund.id).length;
    const resent = await paykit.webhooks.resend(refund.id);
    assert.equal(resent.delivery_status, 'pending');
    await receiver.waitFor((all) => all.filter((r) => r.id === refund.id).length > seen);
    await paykitError(paykit.webhooks.delivery('evt_nope'), 404, 'No event evt_nope of yours.');

    const rotated = await paykit.webhooks.rotateSecret({ overlap_hours: 1 });
    assert.notEqual(rotated.signing_secret, secret);
    assert.ok(rotated.previous_secret_expires_at);
    const onboarded = await paykit.merchants.onboard(application());
    const next = await receiver.waitForEvent('merchant.onboarding', onboarded.merchant_id);
    assert.equal(
      String(next.headers['webhook-signature']).split(' ').length,
      2,
      'both secrets sign during the overlap',
    );
    for (const key of [secret, rotated.signing_secret])
      assert.equal(verifyWebhook(next.body, next.headers, key).event_type, 'merchant.onboarding');
  });
});
