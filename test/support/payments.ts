import type { TestService } from './service.ts';
import { validApplication } from './fixtures.ts';

export interface ApprovedMerchant {
  merchantKey: string;
  merchantId: string;
}

/** A merchant onboarded and approved through the API, ready to take payments. */
export async function approvedMerchant(service: TestService, auth?: { id: string; secret: string }): Promise<ApprovedMerchant> {
  const created = await service.api('POST', '/onboarding', { json: validApplication(), ...(auth ? { auth } : {}) });
  const { merchant_key, merchant_id } = created.body.data;
  const approved = await service.api('POST', '/approve-merchant', { json: { merchant_id }, ...(auth ? { auth } : {}) });
  if (approved.status !== 200) throw new Error(`approval failed: ${approved.text}`);
  return { merchantKey: merchant_key, merchantId: merchant_id };
}

let orders = 0;
export const nextOrderId = () => `order-${Date.now()}-${++orders}`;

export const TEST_CARD = { card_number: '4242424242424242', exp_month: 12, exp_year: 2035, cvc: '123' };

/** Creates a pay link for `amount` and pays it with a card through POST /sandbox/pay; the sale's id. */
export async function paidSale(service: TestService, merchantKey: string, amount = '100.00', extra: Record<string, unknown> = {}): Promise<string> {
  const link = await service.api('POST', '/requests', { json: { merchant_key: merchantKey, amount, order_id: nextOrderId(), ...extra } });
  if (link.status !== 200) throw new Error(`request failed: ${link.text}`);
  const paid = await service.api('POST', '/sandbox/pay', { json: { pay_link: link.body.data.pay_link, method: 'card', ...TEST_CARD } });
  if (paid.status !== 200) throw new Error(`payment failed: ${paid.text}`);
  return paid.body.data.transaction_id;
}

/** The outbox events of a type about one transaction (by any of the interface's id fields). */
export async function eventsAbout(service: TestService, type: string, id: string) {
  const events = await service.store.events.listForClient(service.client.clientId);
  return events.filter((e) => e.event_type === type && Object.values(e.data).includes(id));
}
