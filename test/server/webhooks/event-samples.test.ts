/**
 * The sandbox's test events say what production sends: for every event type, the event a real flow delivers and the
 * one `POST /sandbox/webhooks/trigger` delivers have the same fields, each of the same kind (a number, an instant, an
 * id of the same prefix, text), and the same ids naming the same thing (`payment.refund`'s `linked_txn_id` is the
 * refund itself in both, its `parent_transaction_id` the sale). The samples are made by the functions that make real
 * events (server/services/sample-events.ts); this holds them to the flows that use those functions.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { Receiver, type Receipt } from '../../support/receiver.ts';
import { approvedMerchant, nextOrderId, paidSale, partnerClient, TEST_CARD } from '../../support/payments.ts';
import { hoursUntil } from '../../support/ledger.ts';
import { validApplication } from '../../support/fixtures.ts';
import { formBody, newOnboardingLink } from '../../support/onboarding.ts';
import { EVENT_TYPES, type EventType } from '../../../server/domain/event-types.ts';
import { shapeOf } from '../../support/event-shape.ts';

describe('the test events (POST /sandbox/webhooks/trigger) have the shape of real deliveries, for every type', () => {
  let service: TestService;
  let receiver: Receiver;
  before(async () => {
    service = await startService({ webhooks: { scheduleSeconds: [1], timeoutMs: 1000, pollMs: 50 } });
    receiver = await new Receiver().start();
    await service.api('POST', '/client/update-webhooks-url', { json: { webhook_url: receiver.url } });
  });
  after(async () => {
    await service.close();
    await receiver.stop();
  });

  /** The last delivery of each type among `receipts`. */
  const lastOfEach = (receipts: Receipt[]) =>
    new Map(receipts.map((r) => [r.event.event_type as EventType, r.event.data]));

  test('a real journey and the trigger deliver each type with the same fields, kinds and ids', async () => {
    const paykit = partnerClient(service);
    const { merchantKey, merchantId } = await approvedMerchant(service);
    const pay = async (amount: string, payment: Record<string, unknown>, preauth = false) => {
      const { pay_link } = await paykit.payments.request({
        merchant_key: merchantKey,
        amount,
        order_id: nextOrderId(),
        preauth,
      });
      return (await paykit.sandbox.pay({ pay_link, ...payment } as Parameters<typeof paykit.sandbox.pay>[0]))
        .transaction_id;
    };
    const card = { method: 'card', ...TEST_CARD };
    const sale = await pay('80.00', card);
    await paykit.transactions.refund({ merchant_key: merchantKey, transaction_id: sale, amount: '10.00' });
    await paykit.transactions.void({ merchant_key: merchantKey, transaction_id: await pay('5.00', card) });
    const hold = await pay('30.00', card, true);
    await paykit.preauth.update({
      merchant_key: merchantKey,
      transaction_id: hold,
      last_authorized_amount: '30.00',
      new_authorized_amount: '40.00',
    });
    await paykit.preauth.update({
      merchant_key: merchantKey,
      transaction_id: hold,
      last_authorized_amount: '40.00',
      new_authorized_amount: '35.00',
    });
    await paykit.preauth.capture({ merchant_key: merchantKey, transaction_id: hold });
    const ach = await pay('9.00', { method: 'ach', routing_number: '110000000', account_number: '000123456789' });
    await paykit.sandbox.updateAch({ merchant_key: merchantKey, transaction_id: ach, new_status: 'approved' });
    // Disputes (#46): opened (its money withdrawn), answered, submitted; won at the clock's next move (given back).
    const disputed = await paykit.sandbox.openDispute({
      merchant_key: merchantKey,
      transaction_id: await pay('12.00', card),
    });
    await paykit.disputes.saveEvidence(merchantKey, disputed.dispute_id, { explanation: 'winning_evidence' });
    await paykit.disputes.submit(merchantKey, disputed.dispute_id);
    const hosted = await newOnboardingLink(service);
    assert.equal((await service.request('POST', hosted.path, { form: formBody(validApplication()) })).status, 200);
    // Payouts (#45): this merchant's is paid; another's, to the failing test account (ending 1116), fails. The clock
    // reaches a Friday twice (the sales' money is available by the second), then the Monday the payouts arrive.
    const failing = await approvedMerchant(service);
    await paykit.payouts.updateSettings({
      merchant_key: failing.merchantKey,
      routing_number: '110000000',
      account_number: '000111111116',
    });
    await paidSale(service, failing.merchantKey, '20.00');
    for (const [weekday, hour] of [
      [5, 1],
      [5, 1],
      [1, 1],
    ] as const) {
      await paykit.sandbox.advanceClock(hoursUntil(service.clock.now(), weekday, hour));
      await paykit.sandbox.runPayouts();
    }
    const real = lastOfEach(
      await receiver.waitFor((all) => EVENT_TYPES.every((type) => all.some((r) => r.event.event_type === type))),
    );

    const triggered = new Set<string>();
    for (const type of EVENT_TYPES) triggered.add((await paykit.sandbox.triggerWebhook(type, { merchantId })).event_id);
    const samples = lastOfEach(
      (await receiver.waitFor((all) => all.filter((r) => triggered.has(r.id)).length === EVENT_TYPES.length)).filter(
        (r) => triggered.has(r.id),
      ),
    );

    for (const type of EVENT_TYPES)
      assert.deepEqual(
        shapeOf(samples.get(type)!),
        shapeOf(real.get(type)!),
        `${type}: the test event differs from a real one`,
      );
    // The ids the docs promise, in both.
    for (const refund of [real.get('payment.refund')!, samples.get('payment.refund')!]) {
      assert.equal(refund.linked_txn_id, refund.transaction_id, "payment.refund's linked_txn_id is the refund");
      assert.notEqual(refund.parent_transaction_id, refund.transaction_id, 'and parent_transaction_id the sale');
    }
    assert.equal(real.get('payment.refund')!.parent_transaction_id, sale);
    for (const voided of [real.get('payment.void')!, samples.get('payment.void')!])
      assert.notEqual(voided.linked_txn_id, voided.transaction_id, "payment.void's linked_txn_id is the sale");
  });
});
