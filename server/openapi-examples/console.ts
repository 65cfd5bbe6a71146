import type { OperationExample } from './operation-example.ts';
import { HOLD_ID, MERCHANT_KEY, SALE_ID, code } from './story.ts';

/**
 * The payments console (issue 32): what `<transactions-table>` calls with a session token that grants features, and
 * the export a partner's server downloads with paykit/client.
 */
const TOKEN = 'wst_NjEh7Te0ljJmhqhAICLgA-BKl1dEVB95ft-0O22ctgE';
const CONSOLE = `<transactions-table session-token="${TOKEN}"></transactions-table>`;
const REFUND_ID = 'txn_b03f0981-c856-45e7-9b03-ec19326daa4a';

const sale = {
  transaction_id: SALE_ID,
  created_date: '2026-03-10T15:35:15.539Z',
  amount: '25.00',
  net_amount: '23.97',
  card_brand: 'Visa',
  last_four: '4242',
  status: 'completed',
  type: 'sale',
  order_id: 'order-1042',
};
const saleSteps = [
  { at: '2026-03-10T15:35:15.539Z', what: 'created', amount: '25.00' },
  { at: '2026-03-10T15:35:15.539Z', what: 'authorized', amount: '25.00' },
  { at: '2026-03-10T15:35:15.539Z', what: 'captured', amount: '25.00' },
  { at: '2026-03-10T15:35:16.102Z', what: 'receipt_sent' },
];
/** Its money: the fee it kept, and no payout yet (its money is available on 16 March). */
const inBalance = { fee_amount: '1.03', payout: null };
const refunded = {
  ...sale,
  refunded_amount: '5.00',
  refundable_amount: '20.00',
  voidable_until: null,
  capturable: false,
  dispute_id: null,
  timeline: [...saleSteps, { at: '2026-03-10T18:50:03.420Z', what: 'refunded', amount: '5.00' }],
  refunds: [
    {
      transaction_id: REFUND_ID,
      amount: '5.00',
      created_date: '2026-03-10T18:50:03.420Z',
      reason: 'requested_by_customer',
      reason_note: null,
    },
  ],
  money: inBalance,
};
const voided = {
  ...sale,
  status: 'voided',
  refunded_amount: '0.00',
  refundable_amount: '0.00',
  voidable_until: null,
  capturable: false,
  dispute_id: null,
  timeline: [...saleSteps, { at: '2026-03-10T18:50:03.420Z', what: 'voided', amount: '25.00' }],
  refunds: [],
  money: { fee_amount: '0.00', payout: null },
};
const hold = {
  transaction_id: HOLD_ID,
  created_date: '2026-03-10T17:02:11.874Z',
  amount: '45.00',
  net_amount: '43.39',
  card_brand: 'Visa',
  last_four: '4242',
  order_id: 'order-1048',
  refunded_amount: '0.00',
  refundable_amount: '0.00',
  voidable_until: null,
  capturable: false,
  dispute_id: null,
  refunds: [],
  money: { fee_amount: '0.00', payout: null },
};
const CSV = [
  'Transaction ID,Date (UTC),Type,Status,Amount,Refunded,Net,Card brand,Last four,Order ID',
  `${REFUND_ID},2026-03-10T18:50:03.420Z,refund,completed,5.00,0.00,-5.00,Visa,4242,order-1042`,
  `${SALE_ID},2026-03-10T15:35:15.539Z,sale,completed,25.00,5.00,23.97,Visa,4242,order-1042`,
  '',
].join('\r\n');

export const CONSOLE_EXAMPLES: Record<string, OperationExample> = {
  'GET /widgets/transactions/{transaction_id}': {
    params: { transaction_id: SALE_ID },
    answer: {
      result: true,
      message: 'Transaction retrieved.',
      data: {
        ...sale,
        refunded_amount: '0.00',
        refundable_amount: '25.00',
        voidable_until: '2026-03-12T15:35:15.539Z',
        capturable: false,
        dispute_id: null,
        timeline: saleSteps,
        refunds: [],
        money: inBalance,
      },
    },
    client: CONSOLE,
    clientLang: 'html',
  },
  'POST /widgets/transactions/{transaction_id}/refund': {
    params: { transaction_id: SALE_ID },
    body: { amount: '5.00', reason: 'requested_by_customer' },
    answer: { result: true, message: 'Refund processed.', data: refunded },
    client: CONSOLE,
    clientLang: 'html',
  },
  'POST /widgets/transactions/{transaction_id}/void': {
    params: { transaction_id: SALE_ID },
    answer: { result: true, message: 'Transaction voided.', data: voided },
    client: CONSOLE,
    clientLang: 'html',
  },
  'POST /widgets/transactions/{transaction_id}/undo': {
    params: { transaction_id: SALE_ID },
    answer: { result: true, message: 'Sale voided: nobody keeps a fee.', data: { ...voided, undone_as: 'void' } },
    client: CONSOLE,
    clientLang: 'html',
  },
  'POST /widgets/transactions/{transaction_id}/capture': {
    params: { transaction_id: HOLD_ID },
    body: { amount: '40.00' },
    answer: {
      result: true,
      message: 'Hold captured.',
      data: {
        ...hold,
        amount: '40.00',
        status: 'captured',
        type: 'preauth',
        timeline: [
          { at: '2026-03-10T17:02:11.874Z', what: 'created', amount: '40.00' },
          { at: '2026-03-10T17:02:11.874Z', what: 'authorized', amount: '40.00' },
          { at: '2026-03-10T19:12:40.015Z', what: 'captured', amount: '40.00' },
        ],
      },
    },
    client: CONSOLE,
    clientLang: 'html',
  },
  'POST /widgets/transactions/{transaction_id}/adjust': {
    params: { transaction_id: HOLD_ID },
    body: { amount: '50.00' },
    answer: {
      result: true,
      message: 'Hold changed.',
      data: {
        ...hold,
        amount: '50.00',
        status: 'authorized',
        type: 'preauth',
        capturable: true,
        dispute_id: null,
        timeline: [
          { at: '2026-03-10T17:02:11.874Z', what: 'created', amount: '50.00' },
          { at: '2026-03-10T17:02:11.874Z', what: 'authorized', amount: '50.00' },
        ],
      },
    },
    client: CONSOLE,
    clientLang: 'html',
  },
  'POST /widgets/transactions/{transaction_id}/release': {
    params: { transaction_id: HOLD_ID },
    answer: {
      result: true,
      message: 'Hold released.',
      data: {
        ...hold,
        status: 'voided',
        type: 'preauth',
        timeline: [
          { at: '2026-03-10T17:02:11.874Z', what: 'created', amount: '45.00' },
          { at: '2026-03-10T17:02:11.874Z', what: 'authorized', amount: '45.00' },
          { at: '2026-03-10T18:15:40.112Z', what: 'released', amount: '45.00' },
        ],
      },
    },
    client: CONSOLE,
    clientLang: 'html',
  },
  'POST /widgets/transactions/{transaction_id}/receipt': {
    params: { transaction_id: SALE_ID },
    body: { email: 'front.desk@example.com' },
    answer: {
      result: true,
      message: 'Receipt sent.',
      data: {
        ...sale,
        refunded_amount: '0.00',
        refundable_amount: '25.00',
        voidable_until: '2026-03-12T15:35:15.539Z',
        capturable: false,
        dispute_id: null,
        timeline: [...saleSteps, { at: '2026-03-10T19:02:44.310Z', what: 'receipt_sent' }],
        refunds: [],
        money: inBalance,
      },
    },
    client: CONSOLE,
    clientLang: 'html',
  },
  'GET /widgets/transactions/export.csv': {
    query: { q: 'order-1042', lang: 'en' },
    answer: CSV,
    client: CONSOLE,
    clientLang: 'html',
  },
  'GET /merchant/transactions/export.csv': {
    query: { merchant_key: MERCHANT_KEY, q: 'order-1042', lang: 'en' },
    answer: CSV,
    client: code`
      const csv = await paykit.transactions.exportTransactions('${MERCHANT_KEY}', { q: 'order-1042', lang: 'en' });
    `,
  },
};
