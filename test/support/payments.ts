import { PaykitClient } from '../../client/index.ts';
import type { TestService } from './service.ts';
import { partnerApplication } from './fixtures.ts';

/** A service as the setup reaches it: in this process (a TestService, with its client) or a process (its URL alone). */
type Reachable = Pick<TestService, 'baseUrl'> & Partial<Pick<TestService, 'client'>>;

/** The typed partner client, as a partner's server would hold it; the suites' setup goes through it. */
export function partnerClient(service: Reachable, auth?: { id: string; secret: string }): PaykitClient {
  const clientId = auth?.id ?? service.client?.clientId;
  const secretKey = auth?.secret ?? service.client?.secretKey;
  if (!clientId || !secretKey) throw new Error('a service process needs the credentials it was started with');
  return new PaykitClient({ clientId, secretKey, baseUrl: service.baseUrl });
}

export interface ApprovedMerchant {
  merchantKey: string;
  merchantId: string;
}

/** A merchant onboarded and approved through the API, ready to take payments. */
export async function approvedMerchant(
  service: Reachable,
  auth?: { id: string; secret: string },
): Promise<ApprovedMerchant> {
  const paykit = partnerClient(service, auth);
  const { merchant_key, merchant_id } = await paykit.merchants.onboard(partnerApplication());
  await paykit.merchants.approve(merchant_id);
  return { merchantKey: merchant_key, merchantId: merchant_id };
}

let orders = 0;
export const nextOrderId = () => `order-${Date.now()}-${++orders}`;

export const TEST_CARD = { card_number: '4242424242424242', exp_month: 12, exp_year: 2035, cvc: '123' };

/** Creates a pay link for `amount` and pays it with a card through POST /sandbox/pay; the sale's id. */
export async function paidSale(
  service: TestService,
  merchantKey: string,
  amount = '100.00',
  extra: Record<string, unknown> = {},
  cardNumber = TEST_CARD.card_number,
): Promise<string> {
  const paykit = partnerClient(service);
  const { pay_link } = await paykit.payments.request({
    merchant_key: merchantKey,
    amount,
    order_id: nextOrderId(),
    ...extra,
  });
  const paid = await paykit.sandbox.pay({ pay_link, method: 'card', ...TEST_CARD, card_number: cardNumber });
  return paid.transaction_id;
}

/** The outbox events of a type about one transaction (by any of the interface's id fields). */
export async function eventsAbout(service: TestService, type: string, id: string) {
  const events = await service.store.events.listForClient(service.client.clientId);
  return events.filter((e) => e.event_type === type && Object.values(e.data).includes(id));
}
