import { randomUUID } from 'node:crypto';
import type { StatementCounter } from '../../server/store/open.ts';
import type { TestService } from './service.ts';
import { approvedMerchant, nextOrderId, paidSale, TEST_CARD } from './payments.ts';

export const COUNTED_WRITES = [
  'POST /requests',
  'POST /requests with an Idempotency-Key',
  'refund',
  'refund with an Idempotency-Key',
  'void',
  'capture',
] as const;
export type CountedWrite = (typeof COUNTED_WRITES)[number];

/**
 * The statements (round trips) each write sends to PostgreSQL, over HTTP, on a service started with `statements`
 * (test/server/storage/round-trips.test.ts; the bench prints them). Counted between the call and its answer.
 */
export async function roundTripsPerWrite(
  service: TestService,
  statements: StatementCounter,
): Promise<Record<CountedWrite, number>> {
  const { merchantKey } = await approvedMerchant(service);
  // The write itself: the shopper's receipt goes after the answer, and would run beside the next count.
  await service.api('PUT', '/widgets/', { json: { merchant_key: merchantKey, receipts_enabled: false } });
  const counted = async (path: string, json: Record<string, unknown>, key?: string) => {
    const before = statements.count;
    const answer = await service.api('POST', path, {
      json: { merchant_key: merchantKey, ...json },
      ...(key ? { headers: { 'idempotency-key': key } } : {}),
    });
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${answer.text}`);
    return statements.count - before;
  };
  const requestLink = (key?: string) =>
    counted('/requests', { amount: '10.00', order_id: nextOrderId(), email: 'payer@example.com' }, key);
  const hold = async () => {
    const link = await service.api('POST', '/requests', {
      json: { merchant_key: merchantKey, amount: '50.00', order_id: nextOrderId(), preauth: true },
    });
    const paid = await service.api('POST', '/sandbox/pay', {
      json: { pay_link: link.body.data.pay_link, method: 'card', ...TEST_CARD },
    });
    return paid.body.data.transaction_id as string;
  };
  // Warm: the client's credentials and the merchant are read once, as a busy service has them.
  await requestLink();
  return {
    'POST /requests': await requestLink(),
    'POST /requests with an Idempotency-Key': await requestLink(randomUUID()),
    refund: await counted('/order/sales-return', {
      transaction_id: await paidSale(service, merchantKey, '20.00'),
      amount: '5.00',
    }),
    'refund with an Idempotency-Key': await counted(
      '/order/sales-return',
      { transaction_id: await paidSale(service, merchantKey, '20.00'), amount: '5.00' },
      randomUUID(),
    ),
    void: await counted('/order/sales-void', {
      transaction_id: await paidSale(service, merchantKey, '20.00'),
      sub_merchant_key: '',
    }),
    capture: await counted('/preauth/capture', { transaction_id: await hold() }),
  };
}
