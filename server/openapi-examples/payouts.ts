import type { OperationExample } from './operation-example.ts';
import { MERCHANT_KEY, SALE_ID, callWithBody, code } from './story.ts';

/**
 * Where the money of order-1042 went: its sale (25.00), the processor's fee (1.03) and a refund (5.00), available on
 * Monday 16 March (the sale settled on the 12th, two business days before), paid out that day in one payout of 18.97
 * that reached the bank on the 17th (docs/payouts.md).
 */
const PAYOUT_ID = 'po_019cf4e2-5c10-7d2a-9b61-3e8f0c7a2d45';
const REFUND_ID = 'txn_b03f0981-c856-45e7-9b03-ec19326daa4a';
const TOKEN = 'wst_NjEh7Te0ljJmhqhAICLgA-BKl1dEVB95ft-0O22ctgE';
const CONSOLE = `<transactions-table session-token="${TOKEN}"></transactions-table>`;

const payout = {
  payout_id: PAYOUT_ID,
  amount: '18.97',
  currency: 'USD',
  status: 'paid',
  period: '2026-03-16',
  arrival_date: '2026-03-17',
  bank_last_four: '6789',
  entry_count: 3,
  created_date: '2026-03-16T00:00:42.118Z',
  failure_code: null,
  failure_message: null,
};
const entry = (type: string, gross: string, fee: string, net: string, transaction: string, created: string) => ({
  type,
  gross,
  fee,
  net,
  transaction_id: transaction,
  order_id: 'order-1042',
  created_date: created,
  available_on: '2026-03-16',
  payout_id: PAYOUT_ID,
});
const entries = [
  entry('refund', '-5.00', '0.00', '-5.00', REFUND_ID, '2026-03-10T18:50:03.420Z'),
  entry('fee', '0.00', '1.03', '-1.03', SALE_ID, '2026-03-10T15:35:15.539Z'),
  entry('sale', '25.00', '0.00', '25.00', SALE_ID, '2026-03-10T15:35:15.539Z'),
];
const CSV = [
  'Type,Gross,Fee,Net,Transaction ID,Order ID,Created (UTC),Available on,Payout ID',
  ...entries.map((e) =>
    [e.type, e.gross, e.fee, e.net, e.transaction_id, e.order_id, e.created_date, e.available_on, e.payout_id].join(
      ',',
    ),
  ),
  '',
].join('\r\n');
const settings = {
  interval: 'daily',
  weekly_anchor: 'monday',
  bank_last_four: '6789',
  routing_number: '110000000',
  paused: false,
  paused_at: null,
};

export const PAYOUT_EXAMPLES: Record<string, OperationExample> = {
  'GET /balance': {
    query: { merchant_key: MERCHANT_KEY },
    answer: {
      result: true,
      message: 'Balance retrieved.',
      data: { currency: 'USD', available: '0.00', pending: '18.97' },
    },
    client: code`
      const { available, pending } = await paykit.payouts.balance('${MERCHANT_KEY}');
    `,
  },
  'GET /balance/entries.csv': {
    query: { merchant_key: MERCHANT_KEY, from_date: '2026-03-10', to_date: '2026-03-10', lang: 'en' },
    answer: CSV,
    client: code`
      const csv = await paykit.payouts.exportEntries('${MERCHANT_KEY}', { from_date: '2026-03-10', to_date: '2026-03-10', lang: 'en' });
    `,
  },
  'GET /payouts': {
    query: { merchant_key: MERCHANT_KEY, perPage: 20 },
    answer: {
      result: true,
      message: 'Payouts retrieved.',
      data: { items: [payout], next_cursor: null, has_more: false },
    },
    client: code`
      const { items, has_more } = await paykit.payouts.list('${MERCHANT_KEY}', { perPage: 20 });
    `,
  },
  'POST /payouts': {
    body: { merchant_key: MERCHANT_KEY },
    answer: {
      result: true,
      message: 'Payout created.',
      data: { ...payout, status: 'pending', period: null, created_date: '2026-03-16T09:12:05.664Z' },
    },
    client: code`
      const payout = await paykit.payouts.create('${MERCHANT_KEY}');
    `,
  },
  'GET /payouts/settings': {
    query: { merchant_key: MERCHANT_KEY },
    answer: { result: true, message: 'Payout settings retrieved.', data: settings },
    client: code`
      const { interval, bank_last_four, paused } = await paykit.payouts.settings('${MERCHANT_KEY}');
    `,
  },
  'PUT /payouts/settings': callWithBody(
    {
      body: { merchant_key: MERCHANT_KEY, interval: 'weekly', weekly_anchor: 'friday' },
      answer: {
        result: true,
        message: 'Payout settings saved.',
        data: { ...settings, interval: 'weekly', weekly_anchor: 'friday' },
      },
    },
    'const settings = await paykit.payouts.updateSettings',
  ),
  'GET /payouts/{payout_id}': {
    params: { payout_id: PAYOUT_ID },
    query: { merchant_key: MERCHANT_KEY },
    answer: { result: true, message: 'Payout retrieved.', data: payout },
    client: code`
      const payout = await paykit.payouts.get('${MERCHANT_KEY}', '${PAYOUT_ID}');
    `,
  },
  'GET /payouts/{payout_id}/entries': {
    params: { payout_id: PAYOUT_ID },
    query: { merchant_key: MERCHANT_KEY, perPage: 50 },
    answer: {
      result: true,
      message: 'Payout entries retrieved.',
      data: { items: entries, next_cursor: null, has_more: false },
    },
    client: code`
      const { items } = await paykit.payouts.entries('${MERCHANT_KEY}', '${PAYOUT_ID}', { perPage: 50 });
    `,
  },
  'GET /payouts/{payout_id}/entries.csv': {
    params: { payout_id: PAYOUT_ID },
    query: { merchant_key: MERCHANT_KEY, lang: 'en' },
    answer: CSV,
    client: code`
      const csv = await paykit.payouts.exportPayout('${MERCHANT_KEY}', '${PAYOUT_ID}', { lang: 'en' });
    `,
  },
  'POST /sandbox/payouts/run': {
    body: { merchant_key: MERCHANT_KEY },
    answer: {
      result: true,
      message: 'Payout run: 1 made, 0 sent, 0 paid, 0 failed.',
      data: { created: 1, in_transit: 0, paid: 0, failed: 0 },
    },
    client: code`
      const { created } = await paykit.sandbox.runPayouts('${MERCHANT_KEY}');
    `,
  },
  'GET /widgets/payouts': {
    query: { perPage: 10 },
    answer: {
      result: true,
      message: 'Payouts retrieved.',
      data: {
        balance: { currency: 'USD', available: '0.00', pending: '0.00' },
        items: [payout],
        next_cursor: null,
        has_more: false,
      },
    },
    client: CONSOLE,
    clientLang: 'html',
  },
  'GET /widgets/payouts/{payout_id}/entries': {
    params: { payout_id: PAYOUT_ID },
    query: { perPage: 10 },
    answer: {
      result: true,
      message: 'Payout entries retrieved.',
      data: { items: entries, next_cursor: null, has_more: false },
    },
    client: CONSOLE,
    clientLang: 'html',
  },
  'GET /widgets/payouts/{payout_id}/entries.csv': {
    params: { payout_id: PAYOUT_ID },
    query: { lang: 'en' },
    answer: CSV,
    client: CONSOLE,
    clientLang: 'html',
  },
};
