import type { OperationExample } from './operation-example.ts';
import { MERCHANT_KEY, PUBLIC_KEY, SALE_ID, SERVICE, callWithBody, code } from './story.ts';

/**
 * The widgets. The calls the elements make in the page, by public key or with a widget session token, which a partner
 * does not make from its server: their sample is the element that makes them. Then what the merchant's server does
 * for the widgets: a session token for the transactions table, and the widgets' settings.
 */
/** The element whose settings, pay link and pay link's state the first three calls are. */
const PAY_BUTTON = `<pay-button public-key="${PUBLIC_KEY}" amount="25.00" order-id="order-1050" description="Two bags of house blend"></pay-button>`;

export const WIDGET_EXAMPLES: Record<string, OperationExample> = {
  'GET /widgets/{public_key}/settings': {
    params: { public_key: PUBLIC_KEY },
    answer: {
      result: true,
      message: 'Widget settings retrieved.',
      data: {
        merchant_name: 'Juniper Coffee Co.',
        environment: 'sandbox',
        button_label: 'Pay with Juniper',
        primary_color: '#2f5d50',
        text_color: '#ffffff',
      },
    },
    client: PAY_BUTTON,
    clientLang: 'html',
  },
  'POST /widgets/{public_key}/pay-links': {
    params: { public_key: PUBLIC_KEY },
    body: { amount: '25.00', order_id: 'order-1050', description: 'Two bags of house blend' },
    answer: {
      result: true,
      message: 'Pay link created.',
      data: {
        link_id: 'lnk_ba6c67e5-a11b-4f16-81b1-b95dcf718915',
        pay_link: `${SERVICE}/pay/pl_019ab0c4d2e0fxV6TFl1JwTebsvdsz2Pi1eYkH5jubDe7t-TZS-6trs`,
        order_id: 'order-1050',
        amount: '25.00',
        expires_at: '2026-03-17T20:01:49.105Z',
      },
    },
    client: PAY_BUTTON,
    clientLang: 'html',
  },
  'GET /widgets/{public_key}/pay-links/{link_id}': {
    params: { public_key: PUBLIC_KEY, link_id: 'lnk_ba6c67e5-a11b-4f16-81b1-b95dcf718915' },
    answer: {
      result: true,
      message: 'Pay link retrieved.',
      data: {
        link_id: 'lnk_ba6c67e5-a11b-4f16-81b1-b95dcf718915',
        status: 'open',
        order_id: 'order-1050',
        amount: '25.00',
        transaction_id: null,
      },
    },
    client: PAY_BUTTON,
    clientLang: 'html',
  },
  'POST /widgets/{public_key}/payment-requests': {
    params: { public_key: PUBLIC_KEY },
    body: { amount: '25.00', recipient_phone: '+14155550123', order_id: 'order-1051' },
    answer: {
      result: true,
      message: 'A text with the pay link was sent to +14155550123.',
      data: {
        order_id: 'order-1051',
        pay_link: `${SERVICE}/pay/pl_019ab0c4d2e0dCSb1NT_CmUDGS9SuHZw9ZwcHq1HjzqoIryy0GOdEdc`,
      },
    },
    client:
      `<request-payment-button public-key="${PUBLIC_KEY}" amount="25.00" recipient-phone="+14155550123" order-id="order-1051">` +
      '</request-payment-button>',
    clientLang: 'html',
  },
  'GET /widgets/transactions': {
    query: { page: 1, perPage: 10, status: 'completed', sort: 'date', order: 'desc' },
    answer: {
      result: true,
      message: 'Transactions retrieved.',
      data: {
        items: [
          {
            transaction_id: 'txn_ec3ee1a1-8e8d-4665-ae46-fe21671881a8',
            created_date: '2026-03-10T19:19:39.820Z',
            amount: '60.00',
            net_amount: '59.52',
            card_brand: 'ACH',
            last_four: '6789',
            status: 'completed',
            type: 'sale',
            order_id: 'order-1046',
            refunded_amount: '0.00',
            refundable_amount: '60.00',
            voidable_until: '2026-03-12T19:19:40.000Z',
            capturable: false,
            dispute_id: null,
          },
          {
            transaction_id: 'txn_8febd1dc-5a8f-40d2-a0db-5e97ebcf3c3a',
            created_date: '2026-03-10T18:04:24.131Z',
            amount: '175.00',
            net_amount: '169.62',
            card_brand: 'Visa',
            last_four: '4242',
            status: 'completed',
            type: 'sale',
            order_id: 'order-1045',
            refunded_amount: '0.00',
            refundable_amount: '175.00',
            voidable_until: '2026-03-12T18:04:24.000Z',
            capturable: false,
            dispute_id: null,
          },
          {
            transaction_id: 'txn_548b15ac-c379-469b-8d03-b29c17c42709',
            created_date: '2026-03-10T16:35:52.027Z',
            amount: '18.50',
            net_amount: '17.66',
            card_brand: 'Visa',
            last_four: '4242',
            status: 'completed',
            type: 'sale',
            order_id: 'order-1044',
            refunded_amount: '0.00',
            refundable_amount: '18.50',
            voidable_until: '2026-03-12T16:35:52.000Z',
            capturable: false,
            dispute_id: null,
          },
          {
            transaction_id: 'txn_7bf34ddb-4735-4797-8352-415b34ab0755',
            created_date: '2026-03-10T16:02:37.741Z',
            amount: '18.50',
            net_amount: '17.66',
            card_brand: 'Visa',
            last_four: '4242',
            status: 'completed',
            type: 'sale',
            order_id: 'order-1043',
            refunded_amount: '0.00',
            refundable_amount: '18.50',
            voidable_until: '2026-03-12T16:02:38.000Z',
            capturable: false,
            dispute_id: null,
          },
          {
            transaction_id: SALE_ID,
            created_date: '2026-03-10T15:35:15.539Z',
            amount: '25.00',
            net_amount: '23.97',
            card_brand: 'Visa',
            last_four: '4242',
            status: 'completed',
            type: 'sale',
            order_id: 'order-1042',
            refunded_amount: '0.00',
            refundable_amount: '25.00',
            voidable_until: '2026-03-12T15:35:16.000Z',
            capturable: false,
            dispute_id: null,
          },
        ],
        page: 1,
        perPage: 10,
        totalCount: 5,
        next_cursor: null,
        has_more: false,
        features: {
          refunds: true,
          voids: true,
          captures: false,
          export: true,
          receipts: false,
          payouts: false,
          disputes: true,
        },
      },
    },
    client: `<transactions-table session-token="wst_NjEh7Te0ljJmhqhAICLgA-BKl1dEVB95ft-0O22ctgE" page-size="10"></transactions-table>`,
    clientLang: 'html',
  },
  'POST /widgets/sessions': {
    body: { merchant_key: MERCHANT_KEY, features: { refunds: true, voids: true, export: true } },
    answer: {
      result: true,
      message: 'Widget session created.',
      data: {
        session_token: 'wst_NjEh7Te0ljJmhqhAICLgA-BKl1dEVB95ft-0O22ctgE',
        expires_at: '2026-03-10T20:25:19.166Z',
        session_id: 'wss_019ab0c4-d2e0-7a31-8f0e-5b2c9d4e6f70',
        features: {
          refunds: true,
          voids: true,
          captures: false,
          export: true,
          receipts: false,
          payouts: false,
          disputes: true,
        },
      },
    },
    client: code`
      const { session_token, expires_at, features } = await paykit.widgets.createSession('${MERCHANT_KEY}', {
        features: { refunds: true, voids: true, export: true },
      });
    `,
  },
  'PUT /widgets/': callWithBody(
    {
      body: {
        merchant_key: MERCHANT_KEY,
        button_label: 'Pay with Juniper',
        primary_color: '#2f5d50',
        text_color: '#ffffff',
        allowed_origins: ['https://shop.junipercoffee.example'],
        receipts_enabled: true,
      },
      answer: {
        result: true,
        message: 'Widget settings updated.',
        data: {
          button_label: 'Pay with Juniper',
          primary_color: '#2f5d50',
          text_color: '#ffffff',
          allowed_origins: ['https://shop.junipercoffee.example'],
          logo: null,
          receipts_enabled: true,
        },
      },
    },
    'const settings = await paykit.widgets.updateSettings',
  ),
};
