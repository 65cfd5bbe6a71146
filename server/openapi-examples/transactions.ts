import type { OperationExample } from './operation-example.ts';
import { MERCHANT_KEY, SALE_ID, callWithBody, code } from './story.ts';

/** Listing, reading, refunding and voiding transactions. */
export const TRANSACTION_EXAMPLES: Record<string, OperationExample> = {
  'GET /merchant/transactions': {
    query: { merchant_key: MERCHANT_KEY, from_date: '2026-03-10', to_date: '2026-03-10', limit: 3, pageNumber: 1 },
    answer: {
      result: true,
      message: 'Transactions retrieved.',
      total: 7,
      next_cursor: 'WyIyMDI2LTAzLTEwVDE4OjI3OjQ1Ljk4MFoiLDQxXQ',
      has_more: true,
      data: [
        {
          transaction_id: 'txn_b03f0981-c856-45e7-9b03-ec19326daa4a',
          amount: '5.00',
          created_date: '2026-03-10T18:50:03.420Z',
          fee_percentage: '0.0000000',
          net_amount: -5,
          other_details: { auth_code: 'T9UQB5', card_brand: 'Visa', last_four: '4242' },
          type: 'refund',
          status: 'completed',
          state: 'completed',
          method: 'card',
          order_id: 'order-1042',
          refunded_amount: '0.00',
          settled: false,
          parent_transaction_id: SALE_ID,
          dispute_id: null,
        },
        {
          transaction_id: 'txn_cef4471d-16df-4319-b938-2af51692f326',
          amount: '40.00',
          created_date: '2026-03-10T18:36:54.656Z',
          fee_percentage: '0.0000000',
          net_amount: -38.54,
          other_details: { auth_code: 'ANEUPG', card_brand: 'Visa', last_four: '4242' },
          type: 'void',
          status: 'completed',
          state: 'completed',
          method: 'card',
          order_id: 'order-1048',
          refunded_amount: '0.00',
          settled: false,
          parent_transaction_id: 'txn_01a71b0f-445d-4421-83bb-38e726ef1c67',
          dispute_id: null,
        },
        {
          transaction_id: 'txn_01a71b0f-445d-4421-83bb-38e726ef1c67',
          amount: '40.00',
          created_date: '2026-03-10T18:27:45.980Z',
          fee_percentage: '2.9000000',
          net_amount: 38.54,
          other_details: { auth_code: 'ANEUPG', card_brand: 'Visa', last_four: '4242' },
          type: 'sale',
          status: 'voided',
          state: 'voided',
          method: 'card',
          order_id: 'order-1048',
          refunded_amount: '0.00',
          settled: false,
          parent_transaction_id: null,
          dispute_id: null,
        },
      ],
    },
    client: code`
      const { items, total } = await paykit.transactions.list('${MERCHANT_KEY}', {
        from_date: '2026-03-10',
        to_date: '2026-03-10',
        limit: 3,
        pageNumber: 1,
      });
    `,
  },
  'GET /merchant/transactions/{transaction_id}': {
    params: { transaction_id: SALE_ID },
    query: { merchant_key: MERCHANT_KEY },
    answer: {
      result: true,
      message: 'Transaction retrieved.',
      data: [
        {
          transaction_id: SALE_ID,
          amount: '25.00',
          transaction_date: '2026-03-10T15:35:15.539Z',
          fee_percentage: '2.9000000',
          net_amount: 23.97,
          other_details: { authcode: 'T9UQB5', cardType: 'Visa', lastFourDigits: '4242' },
          type: 'sale',
          status: 'completed',
          state: 'partly_refunded',
          method: 'card',
          order_id: 'order-1042',
          refunded_amount: '5.00',
          settled: false,
          parent_transaction_id: null,
          dispute_id: null,
        },
      ],
    },
    client: code`
      // The interface answers an array of one item; the client hands over the item.
      const transaction = await paykit.transactions.get('${MERCHANT_KEY}', '${SALE_ID}');
    `,
  },
  'POST /order/sales-return': callWithBody(
    {
      body: { merchant_key: MERCHANT_KEY, transaction_id: SALE_ID, amount: '5.00' },
      answer: {
        result: true,
        message: 'Refund processed.',
        data: {
          sales_id: 'txn_b03f0981-c856-45e7-9b03-ec19326daa4a',
          transaction_id: 'txn_b03f0981-c856-45e7-9b03-ec19326daa4a',
          order_createdfrom: 'pay_link',
          amount: 5,
          txn_id: 'gw_60471605-0033-40c6-915f-243d1aca02df',
          txn_date: '2026-03-10T18:50:03.420Z',
          linked_txn_id: SALE_ID,
          Status: 'Success',
          type: 'Refund',
        },
      },
    },
    'const refund = await paykit.transactions.refund',
  ),
  'POST /order/sales-void': callWithBody(
    {
      body: { merchant_key: MERCHANT_KEY, transaction_id: 'txn_01a71b0f-445d-4421-83bb-38e726ef1c67' },
      answer: {
        result: true,
        message: 'Transaction voided.',
        data: {
          sales_id: 'txn_cef4471d-16df-4319-b938-2af51692f326',
          transaction_id: 'txn_cef4471d-16df-4319-b938-2af51692f326',
          order_createdfrom: 'pay_link',
          amount: 40,
          txn_id: 'gw_6f8e03ac-f2a3-4581-be78-0f5d94be8869',
          txn_date: '2026-03-10T18:36:54.656Z',
          linked_txn_id: 'txn_01a71b0f-445d-4421-83bb-38e726ef1c67',
          Status: 'Success',
          type: 'Void',
        },
      },
    },
    'const voided = await paykit.transactions.void',
  ),
};
