import type { OperationExample } from './operation-example.ts';
import { HOLD_ID, MERCHANT_KEY, callWithBody, code } from './story.ts';

/** Preauthorizations (holds): raise or lower, read, list, capture, void. */
/** The hold of order-1046 as it reads once raised to 175.00. */
const HOLD = {
  transaction_id: HOLD_ID,
  order_id: 'order-1046',
  amount: '175.00',
  status: 'authorized',
  customer_id: '',
  card_brand: 'Visa',
  last_four: '4242',
  created_date: '2026-03-10T17:06:29.261Z',
  captured_transaction_id: null,
  authorized_amount: '150.00',
  captured_amount: null,
  released_amount: null,
  history: [
    { move: 'authorized', amount: '150.00', at: '2026-03-10T17:06:29.261Z' },
    { move: 'increased', amount: '175.00', at: '2026-03-10T17:40:12.508Z' },
  ],
};

export const PREAUTH_EXAMPLES: Record<string, OperationExample> = {
  'POST /preauth/capture': callWithBody(
    {
      body: { merchant_key: MERCHANT_KEY, transaction_id: HOLD_ID, last_authorized_amount: '175.00' },
      answer: {
        result: true,
        message: 'Authorization captured.',
        data: {
          Status: 'Approved',
          Account: '4242',
          Brand: 'Visa',
          AuthCode: 'I8CZVZ',
          amount: '175.00',
          Authorized: 175,
          orderid: 'order-1046',
          transaction_id: 'txn_8febd1dc-5a8f-40d2-a0db-5e97ebcf3c3a',
          net_amount: 169.62,
        },
      },
    },
    'const capture = await paykit.preauth.capture',
  ),
  'POST /preauth/update': callWithBody(
    {
      body: {
        merchant_key: MERCHANT_KEY,
        transaction_id: HOLD_ID,
        last_authorized_amount: '150.00',
        new_authorized_amount: '175.00',
      },
      answer: {
        result: true,
        message: 'Authorized amount raised to 175.00.',
        data: {
          transaction_id: HOLD_ID,
          order_id: 'order-1046',
          previous_amount: '150.00',
          authorized_amount: '175.00',
          change: 'increment',
        },
      },
    },
    'const { authorized_amount, change } = await paykit.preauth.update',
  ),
  'GET /preauth': {
    query: { merchant_key: MERCHANT_KEY, status: 'authorized', page: 1, perPage: 20 },
    answer: {
      result: true,
      message: 'Preauthorizations retrieved.',
      data: {
        items: [
          {
            transaction_id: 'txn_2e50e1b3-33c4-4496-bd25-8634d387404a',
            order_id: 'order-1047',
            amount: '80.00',
            status: 'authorized',
            customer_id: '',
            card_brand: 'Visa',
            last_four: '4242',
            created_date: '2026-03-10T17:26:58.616Z',
            captured_transaction_id: null,
            authorized_amount: '80.00',
            captured_amount: null,
            released_amount: null,
            history: [{ move: 'authorized', amount: '80.00', at: '2026-03-10T17:26:58.616Z' }],
          },
          HOLD,
        ],
        page: 1,
        perPage: 20,
        totalCount: 2,
        next_cursor: null,
        has_more: false,
      },
    },
    client: code`
      const holds = await paykit.preauth.list('${MERCHANT_KEY}', { status: 'authorized', page: 1, perPage: 20 });
    `,
  },
  'GET /preauth/{transaction_id}': {
    params: { transaction_id: HOLD_ID },
    query: { merchant_key: MERCHANT_KEY },
    answer: {
      result: true,
      message: 'Preauthorization retrieved.',
      data: HOLD,
    },
    client: code`
      const hold = await paykit.preauth.get('${MERCHANT_KEY}', '${HOLD_ID}');
    `,
  },
  'POST /preauth/void': callWithBody(
    {
      body: { merchant_key: MERCHANT_KEY, transaction_id: 'txn_2e50e1b3-33c4-4496-bd25-8634d387404a' },
      answer: {
        result: true,
        message: 'Authorization voided.',
        data: {
          transaction_id: 'txn_2e50e1b3-33c4-4496-bd25-8634d387404a',
          order_id: 'order-1047',
          amount: '80.00',
          Status: 'Voided',
        },
      },
    },
    'const released = await paykit.preauth.void',
  ),
};
