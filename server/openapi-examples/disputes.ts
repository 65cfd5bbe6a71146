import type { OperationExample } from './operation-example.ts';
import { MERCHANT_ID, MERCHANT_KEY, SALE_ID, callWithBody, code } from './story.ts';

/**
 * order-1042's card holder disputes the 20.00 not refunded of it on 18 March, as not received: 20.00 and the 15.00 fee
 * leave the balance; the merchant saves the carrier's tracking and a signed delivery slip, and submits it
 * (docs/disputes.md).
 */
const DISPUTE_ID = 'dp_019cffa1-2b7e-7c40-8d1e-5a9b3c6f0e12';
const FILE_ID = 'df_019cffb0-7a21-7e58-9c3d-1f4e6b8a2c90';
// The smallest PDF the service takes: its bytes start %PDF-.
const PDF_BASE64 = 'JVBERi0xLjQKJSVFT0YK';

const summary = {
  dispute_id: DISPUTE_ID,
  merchant_id: MERCHANT_ID,
  transaction_id: SALE_ID,
  amount: '20.00',
  fee: '15.00',
  currency: 'USD',
  reason: 'product_not_received',
  status: 'needs_response',
  funds_withdrawn: true,
  evidence_due_by: '2026-03-25T09:30:00.000Z',
  file_count: 0,
  submitted_at: null,
  closed_at: null,
  created_date: '2026-03-18T09:30:00.000Z',
  updated_date: '2026-03-18T09:30:00.000Z',
};
const opened = {
  ...summary,
  evidence: {},
  files: [],
  history: [{ status: 'needs_response', at: summary.created_date }],
};
const file = {
  file_id: FILE_ID,
  filename: 'delivery-slip.pdf',
  content_type: 'application/pdf',
  size: 14,
  created_date: '2026-03-19T11:02:41.310Z',
};
const evidence = {
  shipping_carrier: 'UPS',
  shipping_tracking_number: '1Z999AA10123456784',
  explanation: 'Delivered on 13 March and signed for by the card holder.',
};
const answered = {
  ...opened,
  file_count: 1,
  updated_date: file.created_date,
  evidence,
  files: [file],
};
const submitted = {
  ...answered,
  status: 'under_review',
  submitted_at: '2026-03-19T11:05:12.004Z',
  updated_date: '2026-03-19T11:05:12.004Z',
  history: [...opened.history, { status: 'under_review', at: '2026-03-19T11:05:12.004Z' }],
};

const lost = {
  ...opened,
  status: 'lost',
  funds_withdrawn: true,
  closed_at: '2026-03-19T08:00:00.000Z',
  updated_date: '2026-03-19T08:00:00.000Z',
  history: [...opened.history, { status: 'lost', at: '2026-03-19T08:00:00.000Z' }],
};
const CONSOLE =
  '<transactions-table session-token="wst_NjEh7Te0ljJmhqhAICLgA-BKl1dEVB95ft-0O22ctgE"></transactions-table>';

export const DISPUTE_EXAMPLES: Record<string, OperationExample> = {
  'GET /disputes': {
    query: { merchant_key: MERCHANT_KEY, status: 'needs_response', perPage: 20 },
    answer: {
      result: true,
      message: 'Disputes retrieved.',
      data: { items: [summary], next_cursor: null, has_more: false },
    },
    client: code`
      const { items } = await paykit.disputes.list('${MERCHANT_KEY}', { status: 'needs_response', perPage: 20 });
    `,
  },
  'GET /disputes/{dispute_id}': {
    params: { dispute_id: DISPUTE_ID },
    query: { merchant_key: MERCHANT_KEY },
    answer: { result: true, message: 'Dispute retrieved.', data: answered },
    client: code`
      const dispute = await paykit.disputes.get('${MERCHANT_KEY}', '${DISPUTE_ID}');
    `,
  },
  'GET /disputes/{dispute_id}/files/{file_id}': {
    params: { dispute_id: DISPUTE_ID, file_id: FILE_ID },
    query: { merchant_key: MERCHANT_KEY },
    answer: { result: true, message: 'File retrieved.', data: { ...file, content_base64: PDF_BASE64 } },
    client: code`
      const { filename, content_base64 } = await paykit.disputes.file('${MERCHANT_KEY}', '${DISPUTE_ID}', '${FILE_ID}');
    `,
  },
  'POST /disputes/{dispute_id}/evidence': {
    params: { dispute_id: DISPUTE_ID },
    body: {
      merchant_key: MERCHANT_KEY,
      ...evidence,
      files: [{ filename: 'delivery-slip.pdf', content_base64: PDF_BASE64 }],
    },
    answer: { result: true, message: 'Evidence saved.', data: answered },
    client: code`
      const dispute = await paykit.disputes.saveEvidence('${MERCHANT_KEY}', '${DISPUTE_ID}', {
        shipping_carrier: '${evidence.shipping_carrier}',
        shipping_tracking_number: '${evidence.shipping_tracking_number}',
        explanation: '${evidence.explanation}',
        files: [{ filename: 'delivery-slip.pdf', content_base64: '${PDF_BASE64}' }],
      });
    `,
  },
  'POST /disputes/{dispute_id}/submit': {
    params: { dispute_id: DISPUTE_ID },
    body: { merchant_key: MERCHANT_KEY },
    answer: { result: true, message: 'Evidence submitted.', data: submitted },
    client: code`
      const dispute = await paykit.disputes.submit('${MERCHANT_KEY}', '${DISPUTE_ID}');
    `,
  },
  'POST /disputes/{dispute_id}/accept': {
    params: { dispute_id: DISPUTE_ID },
    body: { merchant_key: MERCHANT_KEY },
    answer: { result: true, message: 'Dispute accepted.', data: lost },
    client: code`
      const dispute = await paykit.disputes.accept('${MERCHANT_KEY}', '${DISPUTE_ID}');
    `,
  },
  // The console's calls (session feature: disputes): the same answers, the merchant named by the session token.
  'GET /widgets/disputes': {
    query: { status: 'needs_response', perPage: 20 },
    answer: {
      result: true,
      message: 'Disputes retrieved.',
      data: { items: [summary], next_cursor: null, has_more: false },
    },
    client: CONSOLE,
    clientLang: 'html',
  },
  'GET /widgets/disputes/{dispute_id}': {
    params: { dispute_id: DISPUTE_ID },
    answer: { result: true, message: 'Dispute retrieved.', data: answered },
    client: CONSOLE,
    clientLang: 'html',
  },
  'GET /widgets/disputes/{dispute_id}/files/{file_id}': {
    params: { dispute_id: DISPUTE_ID, file_id: FILE_ID },
    answer: { result: true, message: 'File retrieved.', data: { ...file, content_base64: PDF_BASE64 } },
    client: CONSOLE,
    clientLang: 'html',
  },
  'POST /widgets/disputes/{dispute_id}/evidence': {
    params: { dispute_id: DISPUTE_ID },
    body: { ...evidence, files: [{ filename: 'delivery-slip.pdf', content_base64: PDF_BASE64 }] },
    answer: { result: true, message: 'Evidence saved.', data: answered },
    client: CONSOLE,
    clientLang: 'html',
  },
  'POST /widgets/disputes/{dispute_id}/submit': {
    params: { dispute_id: DISPUTE_ID },
    answer: { result: true, message: 'Evidence submitted.', data: submitted },
    client: CONSOLE,
    clientLang: 'html',
  },
  'POST /widgets/disputes/{dispute_id}/accept': {
    params: { dispute_id: DISPUTE_ID },
    answer: { result: true, message: 'Dispute accepted.', data: lost },
    client: CONSOLE,
    clientLang: 'html',
  },
  'POST /sandbox/disputes': callWithBody(
    {
      body: { merchant_key: MERCHANT_KEY, transaction_id: SALE_ID, reason: 'product_not_received' },
      answer: { result: true, message: 'Dispute opened.', data: opened },
    },
    'const dispute = await paykit.sandbox.openDispute',
  ),
};
