import type { OperationExample } from './operation-example.ts';
import { EVENT_ID, LINK_ID, MERCHANT_ID, SALE_ID, WEBHOOK_URL, code } from './story.ts';

/** The webhook endpoint, its signing secret and the delivery log. */
/** The payment.success event of the sale, as delivered, and its one delivery attempt. */
export const SALE_EVENT_DATA = {
  transaction_id: SALE_ID,
  merchant_id: MERCHANT_ID,
  amount: 25,
  net_amount: 23.97,
  fee_amount: 1.03,
  order_id: 'order-1042',
  last_four: '4242',
  brand: 'Visa',
  link_id: LINK_ID,
};
const FIRST_ATTEMPT = {
  attempted_at: '2026-03-10T15:35:15.574Z',
  url: WEBHOOK_URL,
  status_code: 200,
  error: null,
  duration_ms: 9,
};

export const WEBHOOK_EXAMPLES: Record<string, OperationExample> = {
  'POST /client/update-webhooks-url': {
    body: { webhook_url: WEBHOOK_URL },
    answer: {
      status: true,
      message: 'Webhook URL updated.',
      data: { webhook_url: WEBHOOK_URL, signing_secret: 'whsec_I2elxQvEglDFZOuq2dBWZKo9n3hhciuH' },
    },
    client: code`
      const { signing_secret } = await paykit.webhooks.register('${WEBHOOK_URL}');
    `,
  },
  'GET /client/webhooks': {
    answer: {
      result: true,
      message: 'Webhook registration retrieved.',
      data: {
        webhook_url: WEBHOOK_URL,
        signing_secret: 'whsec_I2elxQvEglDFZOuq2dBWZKo9n3hhciuH',
        previous_secret_expires_at: null,
        enabled: true,
        disabled_reason: null,
        updated_at: '2026-03-10T14:02:11.071Z',
      },
    },
    client: code`
      const endpoint = await paykit.webhooks.get();
    `,
  },
  'POST /client/webhooks/rotate-secret': {
    body: { overlap_hours: 24 },
    answer: {
      result: true,
      message: 'Signing secret rotated; the old one also signs until 2026-03-11T21:12:49.876Z.',
      data: {
        webhook_url: WEBHOOK_URL,
        signing_secret: 'whsec_8nTyrJs0fnyP1G/PCGYgzr8vEQwBfcaS',
        previous_secret_expires_at: '2026-03-11T21:12:49.876Z',
        enabled: true,
        disabled_reason: null,
        updated_at: '2026-03-10T21:12:49.876Z',
      },
    },
    client: code`
      const endpoint = await paykit.webhooks.rotateSecret({ overlap_hours: 24 });
    `,
  },
  'GET /client/webhooks/events': {
    query: { status: 'delivered', page: 1, perPage: 3 },
    answer: {
      result: true,
      message: 'Deliveries retrieved.',
      data: {
        items: [
          {
            event_id: 'evt_aaf50db0-20c7-4905-a64a-9596ab814b01',
            event_type: 'payment.success',
            created_at: '2026-03-10T19:49:48.226Z',
            delivery_status: 'delivered',
            attempts: 1,
            next_attempt_at: null,
            delivered_at: '2026-03-10T19:49:48.247Z',
          },
          {
            event_id: 'evt_6f7c8b86-99be-4e7b-a37f-117ee331d23b',
            event_type: 'ach.update',
            created_at: '2026-03-10T19:49:48.226Z',
            delivery_status: 'delivered',
            attempts: 1,
            next_attempt_at: null,
            delivered_at: '2026-03-10T19:49:48.246Z',
          },
          {
            event_id: 'evt_7ba9c7c8-c235-4550-8e0a-25b7894b482b',
            event_type: 'payment.refund',
            created_at: '2026-03-10T18:50:03.420Z',
            delivery_status: 'delivered',
            attempts: 1,
            next_attempt_at: null,
            delivered_at: '2026-03-10T18:50:03.445Z',
          },
        ],
        page: 1,
        perPage: 3,
        totalCount: 16,
        next_cursor: 'WyIyMDI2LTAzLTEwVDE4OjUwOjAzLjQyMFoiLDE0XQ',
        has_more: true,
      },
    },
    client: code`
      const deliveries = await paykit.webhooks.deliveries({ status: 'delivered', page: 1, perPage: 3 });
    `,
  },
  'GET /client/webhooks/events/{event_id}': {
    params: { event_id: EVENT_ID },
    answer: {
      result: true,
      message: 'Delivery retrieved.',
      data: {
        event_id: EVENT_ID,
        event_type: 'payment.success',
        created_at: '2026-03-10T15:35:15.539Z',
        delivery_status: 'delivered',
        attempts: 1,
        next_attempt_at: null,
        delivered_at: '2026-03-10T15:35:15.583Z',
        data: SALE_EVENT_DATA,
        attempt_log: [FIRST_ATTEMPT],
      },
    },
    client: code`
      const delivery = await paykit.webhooks.delivery('${EVENT_ID}');
    `,
  },
  'POST /client/webhooks/events/{event_id}/resend': {
    params: { event_id: EVENT_ID },
    answer: {
      result: true,
      message: 'The event will be sent again.',
      data: {
        event_id: EVENT_ID,
        event_type: 'payment.success',
        created_at: '2026-03-10T15:35:15.539Z',
        delivery_status: 'pending',
        attempts: 0,
        next_attempt_at: '2026-03-10T15:35:15.539Z',
        delivered_at: null,
        data: SALE_EVENT_DATA,
        attempt_log: [FIRST_ATTEMPT],
      },
    },
    client: code`
      const delivery = await paykit.webhooks.resend('${EVENT_ID}');
    `,
  },
};
