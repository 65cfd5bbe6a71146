import { validApplication } from '../test/support/fixtures.ts';

/** A partner call as the bench makes it: `/api/v1…` path, JSON body, the bench client's credentials. */
export type Api = (method: 'GET' | 'POST', path: string, json?: unknown) => Promise<{ status: number; body: any }>;

/** What one scenario loads: one endpoint, with a body made for each request where it must differ (order ids). */
export interface Load {
  method: 'GET' | 'POST';
  path: string;
  body?: () => string;
  /** Each request carries a fresh Idempotency-Key, as paykit/client sends with every POST. */
  keyed?: boolean;
}

export interface Scenario {
  name: string;
  /** Sets up its data (after the scenarios before it ran) and says what to load. */
  prepare: (api: Api) => Promise<Load>;
}

async function call(api: Api, method: 'GET' | 'POST', path: string, json?: unknown) {
  const answer = await api(method, path, json);
  if (answer.status !== 200)
    throw new Error(`bench set-up: ${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

const onboard = async (api: Api) =>
  (await call(api, 'POST', '/onboarding', validApplication())) as { merchant_key: string; merchant_id: string };

/** The endpoints the bench measures, in the order they run; each database gets fresh ones. */
export function scenarios(): Scenario[] {
  let merchantKey = '';
  let payingKey = '';
  let order = 0;
  return [
    {
      name: 'GET /merchant (1 merchant)',
      prepare: async (api) => {
        merchantKey = (await onboard(api)).merchant_key;
        return { method: 'GET', path: '/api/v1/merchant' };
      },
    },
    {
      name: 'GET /merchant (10 merchants)',
      prepare: async (api) => {
        for (let i = 0; i < 9; i++) await onboard(api);
        return { method: 'GET', path: '/api/v1/merchant' };
      },
    },
    {
      name: 'POST /customers/add',
      prepare: async () => {
        const body = JSON.stringify({
          merchant_key: merchantKey,
          first_name: 'Bench',
          last_name: 'Mark',
          email: 'bench@example.com',
          phone_number: '+14155550123',
        });
        return { method: 'POST', path: '/api/v1/customers/add', body: () => body };
      },
    },
    {
      name: 'POST /requests (with an e-mail)',
      prepare: async (api) => {
        const paying = await onboard(api);
        await call(api, 'POST', '/approve-merchant', { merchant_id: paying.merchant_id });
        payingKey = paying.merchant_key;
        return {
          method: 'POST',
          path: '/api/v1/requests',
          body: () =>
            JSON.stringify({
              merchant_key: payingKey,
              amount: '25.00',
              order_id: `bench-${++order}`,
              email: 'payer@example.com',
            }),
        };
      },
    },
    {
      // The same call as paykit/client makes it: the key is claimed first, then the answer is stored in the request's unit of work.
      name: 'POST /requests (the same, with an Idempotency-Key)',
      prepare: async () => ({
        method: 'POST',
        path: '/api/v1/requests',
        body: () =>
          JSON.stringify({
            merchant_key: payingKey,
            amount: '25.00',
            order_id: `bench-${++order}`,
            email: 'payer@example.com',
          }),
        keyed: true,
      }),
    },
    {
      name: 'POST /order/sales-return (0.01 each, one sale)',
      prepare: async (api) => {
        const link = await call(api, 'POST', '/requests', {
          merchant_key: payingKey,
          amount: '90000.00',
          order_id: 'bench-big-sale',
        });
        const sale = await call(api, 'POST', '/sandbox/pay', {
          pay_link: link.pay_link,
          method: 'card',
          card_number: '4242424242424242',
          exp_month: 12,
          exp_year: 2035,
          cvc: '123',
        });
        const body = JSON.stringify({ merchant_key: payingKey, transaction_id: sale.transaction_id, amount: '0.01' });
        return { method: 'POST', path: '/api/v1/order/sales-return', body: () => body };
      },
    },
  ];
}
