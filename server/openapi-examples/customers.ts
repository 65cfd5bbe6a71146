import type { OperationExample } from './operation-example.ts';
import { CUSTOMER_ID, MERCHANT_KEY, callWithBody, code } from './story.ts';

/** A merchant's stored customers: add, list, read, charge. */
export const CUSTOMER_EXAMPLES: Record<string, OperationExample> = {
  'POST /customers/add': callWithBody(
    {
      body: {
        merchant_key: MERCHANT_KEY,
        first_name: 'Ann',
        last_name: 'Lee',
        email: 'ann.lee@example.com',
        phone_number: '+14155550123',
      },
      answer: {
        result: true,
        message: 'Customer created.',
        data: { customer_email: 'ann.lee@example.com', customer_id: CUSTOMER_ID, customer_phone: '+14155550123' },
      },
    },
    'const customer = await paykit.customers.add',
  ),
  'GET /customers': {
    query: { merchant_key: MERCHANT_KEY, page: 1, perPage: 20 },
    answer: {
      result: true,
      message: 'Customers retrieved.',
      data: {
        allList: [
          {
            Email: 'ann.lee@example.com',
            Phone: '+14155550123',
            create_date: '2026-03-10T15:25:43.343Z',
            customer_id: CUSTOMER_ID,
            first_name: 'Ann',
            last_name: 'Lee',
          },
          {
            Email: 'ben.ortiz@example.com',
            Phone: '',
            create_date: '2026-03-10T15:19:24.971Z',
            customer_id: 'c_519753e3-1f55-4418-bae8-c0aff672b4eb',
            first_name: 'Ben',
            last_name: 'Ortiz',
          },
        ],
        page: 1,
        perPage: 20,
        totalCount: 2,
        totalPage: 1,
        next_cursor: null,
        has_more: false,
      },
    },
    client: code`
      const firstPage = await paykit.customers.list('${MERCHANT_KEY}', { page: 1, perPage: 20 });
      console.log(firstPage.totalCount, firstPage.allList[0]?.Email);
    `,
  },
  'GET /customers/{customerId}': {
    params: { customerId: CUSTOMER_ID },
    query: { merchant_key: MERCHANT_KEY },
    answer: {
      result: true,
      message: 'Customer retrieved.',
      data: { customer_email: 'ann.lee@example.com', customer_id: CUSTOMER_ID, customer_phone: '+14155550123' },
    },
    client: code`
      const customer = await paykit.customers.get('${MERCHANT_KEY}', '${CUSTOMER_ID}');
    `,
  },
  'POST /customers/charge/{customerId}': {
    params: { customerId: CUSTOMER_ID },
    body: { merchant_key: MERCHANT_KEY, amount: 18.5, order_id: 'order-1044' },
    answer: { result: true, message: 'Customer charged.', transaction_id: 'txn_548b15ac-c379-469b-8d03-b29c17c42709' },
    client: code`
      const { transaction_id } = await paykit.customers.charge('${CUSTOMER_ID}', {
        merchant_key: '${MERCHANT_KEY}',
        amount: 18.5,
        order_id: 'order-1044',
      });
    `,
  },
};
