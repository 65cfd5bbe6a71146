import { newId } from '../platform/secrets.ts';
import { isoInstant } from '../domain/instants.ts';
import type { EventType } from '../domain/event-types.ts';

interface Sample {
  merchantId: string;
  sale: string;
  record: string;
  at: string;
}

const merchantOf = ({ merchantId }: Sample) => ({ merchant_id: merchantId, business_name: 'Sample Coffee Roasters', email: 'owner@example.com', company_id: 'CO-1042' });
const reversalOf = ({ merchantId, sale, record, at }: Sample) => ({
  merchant_id: merchantId, transaction_id: record, Status: 'Success' as const, linked_txn_id: sale, sales_id: record,
  order_createdfrom: 'pay_link', amount: 5, txn_id: 'gw_sample', txn_date: at,
});
const preauthOf = ({ merchantId, sale }: Sample, amount: number) => ({ merchant_id: merchantId, guid: sale, amount, order_id: 'order-1042', customer_id: 0 as const });

const payoutOf = ({ merchantId, at }: Sample, status: 'pending' | 'paid' | 'failed') => ({
  merchant_id: merchantId, payout_id: newId('po_'), amount: 71.61, currency: 'USD' as const, status, arrival_date: at.slice(0, 10),
  bank_last_four: '6789', entry_count: 7, created_at: at, failure_code: null as string | null, failure_message: null as string | null,
});

/**
 * Each type's data, with exactly the fields the partner SDK types it with: test/client/sample-events.check.ts fails the
 * typecheck on a missing, extra or differently typed field.
 */
export const SAMPLES = {
  'payment.success': ({ merchantId, sale }: Sample) => ({
    transaction_id: sale, merchant_id: merchantId, amount: 25, net_amount: 23.97, fee_amount: 1.03, order_id: 'order-1042', last_four: '4242', brand: 'Visa',
  }),
  'merchant.onboarding': (sample: Sample) => ({
    merchant_key: 'mk_sample', merchant_id: sample.merchantId, business_name: merchantOf(sample).business_name, email: merchantOf(sample).email, public_key: 'pk_sample',
  }),
  'merchant.approval': merchantOf,
  'documents.signed': (sample: Sample) => ({ ...merchantOf(sample), website: 'https://coffee.example.com' }),
  merchant_status: (sample: Sample) => ({ ...merchantOf(sample), status: 'completed' as const, reason: '', changed_at: sample.at }),
  'ach.update': ({ merchantId, sale }: Sample) => ({ merchant_id: merchantId, status: 'Approved' as const, tran_id: sale, message: 'Approved' }),
  'payment.void': (sample: Sample) => ({ ...reversalOf(sample), amount: 25, type: 'Void' as const }),
  'payment.refund': (sample: Sample) => ({ ...reversalOf(sample), parent_transaction_id: sample.sale, type: 'Refund' as const }),
  preauth: (sample: Sample) => preauthOf(sample, 40),
  'preauth.increment': (sample: Sample) => preauthOf(sample, 55),
  'preauth.decrement': (sample: Sample) => preauthOf(sample, 30),
  'preauth.charge': ({ merchantId, sale, record }: Sample) => ({ merchant_id: merchantId, link_id: sale, guid: record, amount: 40, order_id: 'order-1042', net_amount: 38.54 }),
  'payout.created': (sample: Sample) => payoutOf(sample, 'pending'),
  'payout.paid': (sample: Sample) => payoutOf(sample, 'paid'),
  'payout.failed': (sample: Sample) => ({
    ...payoutOf(sample, 'failed'), bank_last_four: '1116', failure_code: 'account_closed',
    failure_message: "The bank account ending 1116 is closed: the payout's money is back in the available balance, and payouts are paused until the bank account is changed.",
  }),
} satisfies Record<EventType, (sample: Sample) => object>;

/**
 * The data of a sandbox test event (`POST /sandbox/webhooks/trigger`): the fields a real event of the type carries,
 * with fresh transaction ids, naming `merchantId` (one of the client's merchants, or a made-up one).
 */
export function sampleEventData(type: EventType, merchantId: string, now: Date): Record<string, unknown> {
  return { ...SAMPLES[type]({ merchantId, sale: newId('txn_'), record: newId('txn_'), at: isoInstant(now) }) };
}
