import type { OperationExample } from './operation-example.ts';
import { sampleEventData } from '../services/sample-events.ts';
import { SALE_EVENT_DATA } from './webhooks.ts';
import { EVENT_ID, MERCHANT_ID, MERCHANT_KEY, PAY_LINK, SALE_ID, callWithBody, code } from './story.ts';

/**
 * Sandbox-only helpers: approve a merchant, pay a pay link as a customer would (with the sandbox's test card), move
 * the clock, settle the batch, read the messages sent, decide a waiting ACH payment.
 */
export const SANDBOX_EXAMPLES: Record<string, OperationExample> = {
  'POST /approve-merchant': {
    body: { merchant_id: MERCHANT_ID },
    answer: { status: true, message: 'Merchant approved; merchant.approval dispatch started.' },
    client: code`
      await paykit.merchants.approve('${MERCHANT_ID}');
    `,
  },
  'POST /sandbox/pay': callWithBody(
    {
      body: {
        pay_link: PAY_LINK,
        method: 'card',
        card_number: '4242424242424242',
        exp_month: 12,
        exp_year: 2030,
        cvc: '123',
      },
      answer: { result: true, message: 'Payment approved.', data: { transaction_id: SALE_ID, status: 'approved' } },
    },
    'const payment = await paykit.sandbox.pay',
  ),
  'POST /sandbox/clock/advance': {
    body: { hours: 24 },
    answer: { result: true, message: 'The clock moved forward 24 hours.', data: { now: '2026-03-11T22:16:10.530Z' } },
    client: code`
      const { now } = await paykit.sandbox.advanceClock(24);
    `,
  },
  'POST /sandbox/webhooks/trigger': {
    body: { event_type: 'payment.refund', merchant_id: MERCHANT_ID },
    answer: {
      result: true,
      message: 'Test payment.refund event queued for your webhook endpoint.',
      data: {
        event_id: EVENT_ID,
        event_type: 'payment.refund',
        // Made as the trigger makes it: by the function that makes real deliveries.
        data: sampleEventData('payment.refund', MERCHANT_ID, new Date('2026-03-10T16:20:03.517Z'), {
          sale: SALE_ID,
          record: 'txn_0KfWVmSOfbXrUOlQ3oVPwU',
        }),
      },
    },
    client: code`
      const { event_id } = await paykit.sandbox.triggerWebhook('payment.refund', { merchantId: '${MERCHANT_ID}' });
    `,
  },
  'GET /sandbox/events': {
    query: { after: '0.41', wait: 25 },
    answer: {
      result: true,
      message: '1 event.',
      data: {
        events: [
          {
            event_id: EVENT_ID,
            event_type: 'payment.success',
            created_at: '2026-03-10T15:35:15.539Z',
            data: SALE_EVENT_DATA,
          },
        ],
        cursor: '0.42',
      },
    },
    client: code`
      const { events, cursor } = await paykit.sandbox.events({ after: '0.41', wait: 25 });
    `,
  },
  'POST /sandbox/settle': {
    body: { merchant_key: MERCHANT_KEY },
    answer: { result: true, message: 'Batch closed: 5 transactions settled.', data: { settled: 5 } },
    client: code`
      const { settled } = await paykit.sandbox.settle('${MERCHANT_KEY}');
    `,
  },
  'GET /sandbox/messages': {
    answer: {
      result: true,
      message: 'Messages retrieved.',
      data: [
        {
          channel: 'email',
          recipient: 'ann.lee@example.com',
          text:
            'Hello Ann Lee,\n\nJuniper Coffee Co. asks you to pay $25.00 for Two bags of house blend (order order-1042).\n\n' +
            `Pay securely here: ${PAY_LINK}\n`,
          pay_link: PAY_LINK,
          created_at: '2026-03-10T15:30:10.742Z',
        },
        {
          channel: 'sms',
          recipient: '+14155550123',
          text: `Juniper Coffee Co. asks you to pay $25.00. Pay securely: ${PAY_LINK}`,
          pay_link: PAY_LINK,
          created_at: '2026-03-10T15:30:10.742Z',
        },
      ],
    },
    client: code`
      const messages = await paykit.sandbox.messages();
    `,
  },
  'POST /update-ach': callWithBody(
    {
      body: {
        merchant_key: MERCHANT_KEY,
        transaction_id: 'txn_ec3ee1a1-8e8d-4665-ae46-fe21671881a8',
        new_status: 'approved',
      },
      answer: { result: true, message: 'Success.' },
    },
    'await paykit.sandbox.updateAch',
  ),
};
