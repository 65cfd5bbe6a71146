import type { OperationExample } from './operation-example.ts';
import { CUSTOMER_ID, LINK_ID, MERCHANT_KEY, PAY_LINK, SERVICE, callWithBody, code } from './story.ts';

/** Asking customers to pay: pay links sent by SMS or e-mail, requests to stored customers, QR links. */
export const PAYMENT_COLLECTION_EXAMPLES: Record<string, OperationExample> = {
  'POST /requests': callWithBody(
    {
      body: {
        merchant_key: MERCHANT_KEY,
        amount: '25.00',
        order_id: 'order-1042',
        phone_number: '+14155550123',
        email: 'ann.lee@example.com',
        name: 'Ann Lee',
        description: 'Two bags of house blend',
        invoice_number: 'INV1042',
      },
      answer: {
        result: true,
        message: 'Payment request created; an SMS and an e-mail with the pay link has been sent.',
        data: { order_id: 'order-1042', link_id: LINK_ID, pay_link: PAY_LINK },
      },
    },
    'const { pay_link, link_id } = await paykit.payments.request',
  ),
  'POST /requests/{customerId}': {
    params: { customerId: CUSTOMER_ID },
    body: {
      merchant_key: MERCHANT_KEY,
      amount: '18.50',
      order_id: 'order-1043',
      description: 'Monthly beans subscription',
      allow_card: true,
      allow_ach: false,
    },
    answer: {
      result: true,
      message: 'A text request has been sent to the customer.',
      data: {
        order_id: 'order-1043',
        pay_link: `${SERVICE}/pay/pl_019ab0c4d2e0MVJrmBr30Ue5_S0lADoWlHz_C-DjepgQAg-1xtkgh8U`,
        sales_id: 'txn_7bf34ddb-4735-4797-8352-415b34ab0755',
        link_id: 'lnk_9eb051e3-d02d-44d9-bc94-be12a14da755',
      },
    },
    client: code`
      const { pay_link, sales_id } = await paykit.payments.requestFromCustomer('${CUSTOMER_ID}', {
        merchant_key: '${MERCHANT_KEY}',
        amount: '18.50',
        order_id: 'order-1043',
        description: 'Monthly beans subscription',
        allow_card: true,
        allow_ach: false,
      });
    `,
  },
  'POST /order/api-qr_code_link': callWithBody(
    {
      body: {
        merchant_key: MERCHANT_KEY,
        amount: '12.50',
        order_id: 'order-1045',
        description: 'Oat latte and a croissant',
      },
      answer: {
        result: true,
        message: 'QR code link created.',
        data: {
          order_id: 'order-1045',
          qr_code_link: `${SERVICE}/pay/pl_019ab0c4d2e0vKtEo_bBXEYJBQoqOmQ3TweB2Ipg5M5gvbEZC4saoL0/qr.png`,
          sales_id: 'txn_aa2bc324-9b5a-4316-b824-d26ec7ca9db9',
          pay_link: `${SERVICE}/pay/pl_019ab0c4d2e0vKtEo_bBXEYJBQoqOmQ3TweB2Ipg5M5gvbEZC4saoL0`,
        },
      },
    },
    'const { qr_code_link, pay_link } = await paykit.payments.qrLink',
  ),
};
