import assert from 'node:assert/strict';
import type { TestService } from './service.ts';
import { nextOrderId, TEST_CARD } from './payments.ts';

export type Features = Partial<
  Record<'refunds' | 'voids' | 'captures' | 'export' | 'receipts' | 'payouts' | 'disputes', boolean>
>;

/** A widget session for the merchant, with the features given (none: read-only). */
export async function consoleSession(service: TestService, merchantKey: string, features?: Features) {
  const answer = await service.api('POST', '/widgets/sessions', {
    json: { merchant_key: merchantKey, ...(features ? { features } : {}) },
  });
  assert.equal(answer.status, 200, answer.text);
  return answer.body.data as { session_token: string; session_id: string; features: Record<string, boolean> };
}

/** Calls the console's API with a session token, as `<transactions-table>` does. */
export const consoleCall = (service: TestService, token: string) => (method: string, path: string, json?: unknown) =>
  service.request(method, `/api/v1/widgets/transactions${path}`, {
    headers: { authorization: `Bearer ${token}` },
    ...(json !== undefined ? { json } : {}),
  });

/** A pay link paid by card (or authorized, `preauth`), or by bank (`ach`, pending until decided); its transaction id. */
export async function payment(
  service: TestService,
  merchantKey: string,
  amount: string,
  options: {
    preauth?: boolean;
    ach?: boolean;
    orderId?: string;
    email?: string;
    phone?: string;
    name?: string;
    description?: string;
  } = {},
) {
  const link = await service.api('POST', '/requests', {
    json: {
      merchant_key: merchantKey,
      amount,
      order_id: options.orderId ?? nextOrderId(),
      ...(options.preauth ? { preauth: true } : {}),
      ...(options.name ? { name: options.name } : {}),
      ...(options.description ? { description: options.description } : {}),
      ...(options.email ? { email: options.email } : {}),
      ...(options.phone ? { phone_number: options.phone } : {}),
    },
  });
  assert.equal(link.status, 200, link.text);
  const method = options.ach
    ? { method: 'ach', routing_number: '110000000', account_number: '000123456789', name: 'Ann Lee' }
    : { method: 'card', ...TEST_CARD };
  const paid = await service.api('POST', '/sandbox/pay', { json: { pay_link: link.body.data.pay_link, ...method } });
  assert.equal(paid.status, 200, paid.text);
  return paid.body.data.transaction_id as string;
}
