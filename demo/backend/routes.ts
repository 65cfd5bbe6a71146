import { randomUUID } from 'node:crypto';
import { PaykitError, type PaykitClient } from 'paykit/client';
import type { HoldBook } from './holds.ts';
import { sampleApplication } from './sample-application.ts';

/** The demo merchant the storefront sells for; its key stays on this server. */
export interface DemoMerchant {
  merchant_id: string;
  merchant_key: string;
  public_key: string;
}

export interface DemoContext {
  paykit: PaykitClient;
  serviceUrl: string;
  merchant: DemoMerchant;
  holds: HoldBook;
  /** Merchant keys the demo received, kept in memory: a real partner stores them in its own database. */
  merchantKeys: Map<string, string>;
}

export type Answer = { status: number; body: unknown };
type Body = Record<string, unknown>;
type Handler = (context: DemoContext, body: Body) => Promise<Answer>;

/** A browser mistake is answered like the service answers one: 400 and the envelope. */
export class BadRequest extends Error {}

const ok = (data: unknown): Answer => ({ status: 200, body: { result: true, message: 'ok', data } });

function text(body: Body, name: string, { required = true, max = 100 } = {}): string {
  const value = body[name];
  if (value === undefined || value === '') {
    if (required) throw new BadRequest(`${name} is required.`);
    return '';
  }
  if (typeof value !== 'string' || value.length > max)
    throw new BadRequest(`${name} must be text of at most ${max} characters.`);
  return value.trim();
}

const orderId = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

/** The payments console's features for the bakery's staff: every one. */
const CONSOLE_FEATURES = {
  refunds: true,
  voids: true,
  captures: true,
  export: true,
  receipts: true,
  payouts: true,
  disputes: true,
};

export const routes: Record<string, Handler> = {
  'GET /demo-api/config': async ({ serviceUrl, merchant }) =>
    ok({ serviceUrl, publicKey: merchant.public_key, merchantId: merchant.merchant_id }),

  // What a merchant's server does for <transactions-table>: mint a short-lived token with the features its staff
  // may use (#32); the page hands them to the table, which shows those actions only. Without features it is read-only.
  'POST /demo-api/widget-session': async ({ paykit, merchant }) =>
    // (The assertion is for a paykit/client before #32, whose createSession has no `features` yet.)
    ok(
      await paykit.widgets.createSession(merchant.merchant_key, { features: CONSOLE_FEATURES } as Parameters<
        typeof paykit.widgets.createSession
      >[1]),
    ),

  'GET /demo-api/holds': async ({ holds }) => ok(holds.list()),
  // The sandbox pays the hold's link with a test card, as a shopper would on the hosted page.
  'POST /demo-api/holds': async ({ paykit, merchant, holds }, body) => {
    const amount = text(body, 'amount', { max: 20 });
    const order_id = orderId('hold');
    const { pay_link } = await paykit.payments.request({
      merchant_key: merchant.merchant_key,
      amount,
      order_id,
      preauth: true,
      description: 'Table reservation deposit',
    });
    const paid = await paykit.sandbox.pay({
      pay_link,
      method: 'card',
      card_number: '4242424242424242',
      exp_month: 12,
      exp_year: new Date().getUTCFullYear() + 2,
      cvc: '123',
    });
    holds.record({
      transaction_id: paid.transaction_id,
      order_id,
      amount: Number(amount).toFixed(2),
      status: 'authorized',
    });
    return ok(holds.get(paid.transaction_id));
  },
  'POST /demo-api/holds/capture': async ({ paykit, merchant, holds }, body) => {
    const transaction_id = text(body, 'transaction_id');
    const captured = await paykit.preauth.capture({ merchant_key: merchant.merchant_key, transaction_id });
    const hold = holds.get(transaction_id);
    if (hold) holds.record({ ...hold, status: 'captured', sale_id: captured.transaction_id });
    return ok(captured);
  },
  'POST /demo-api/holds/adjust': async ({ paykit, merchant, holds }, body) => {
    const transaction_id = text(body, 'transaction_id');
    const hold = holds.get(transaction_id);
    if (!hold) throw new BadRequest('The demo does not know this hold.');
    const changed = await paykit.preauth.update({
      merchant_key: merchant.merchant_key,
      transaction_id,
      last_authorized_amount: hold.amount,
      new_authorized_amount: text(body, 'amount', { max: 20 }),
    });
    holds.record({ ...hold, amount: Number(changed.authorized_amount).toFixed(2) });
    return ok(changed);
  },
  'POST /demo-api/holds/release': async ({ paykit, merchant, holds }, body) => {
    const transaction_id = text(body, 'transaction_id');
    const released = await paykit.preauth.void({ merchant_key: merchant.merchant_key, transaction_id });
    const hold = holds.get(transaction_id);
    if (hold) holds.record({ ...hold, status: 'released' });
    return ok(released);
  },

  // A card holder disputes the newest card sale not yet disputed, as the sandbox lets a test open one (docs/disputes.md);
  // the staff answer it in the console's dispute panel (the session grants `disputes`).
  'POST /demo-api/disputes': async ({ paykit, merchant }, body) => {
    const reason = text(body, 'reason', { max: 40 });
    const { items } = await paykit.transactions.list(merchant.merchant_key, { perPage: 50 });
    const sale = items.find(
      (t) => t.type === 'sale' && t.method === 'card' && t.status === 'completed' && !t.dispute_id,
    );
    if (!sale) throw new BadRequest('No card sale to dispute yet: take a card payment in the shop first.');
    return ok(
      await paykit.sandbox.openDispute({
        merchant_key: merchant.merchant_key,
        transaction_id: sale.transaction_id,
        reason: reason as 'fraudulent',
      }),
    );
  },
  // Where the bakery's money went (docs/payouts.md): its balance and its latest payouts.
  'GET /demo-api/payouts': async ({ paykit, merchant }) =>
    ok({
      balance: await paykit.payouts.balance(merchant.merchant_key),
      payouts: (await paykit.payouts.list(merchant.merchant_key, { perPage: 10 })).items,
    }),
  // The sandbox's clock, moved forward: settlement, availability and the payout schedule follow it.
  'POST /demo-api/clock': async ({ paykit }, body) => {
    const hours = Number(text(body, 'hours', { max: 4 }));
    if (!Number.isInteger(hours) || hours < 1 || hours > 168)
      throw new BadRequest('hours must be a whole number from 1 to 168.');
    return ok(await paykit.sandbox.advanceClock(hours));
  },

  // What the sandbox would have texted or e-mailed: there is no real SMS in the sandbox.
  'GET /demo-api/messages': async ({ paykit }) => ok(await paykit.sandbox.messages()),

  'GET /demo-api/merchants': async ({ paykit, merchantKeys }) => {
    const merchants = await paykit.merchants.list();
    return ok(
      await Promise.all(
        merchants.map(async (merchant) => {
          const key = merchantKeys.get(merchant.merchant_id);
          const status = key
            ? (await paykit.merchants.onboardingStatus(key)).merchantStatus
            : 'not known yet (its key arrives by webhook)';
          return { ...merchant, status };
        }),
      ),
    );
  },
  'POST /demo-api/onboard': async ({ paykit, merchantKeys }, body) => {
    const { merchant_key, ...visible } = await paykit.merchants.onboard(
      sampleApplication(text(body, 'business_name') || 'Corner Bakery'),
    );
    merchantKeys.set(visible.merchant_id, merchant_key);
    // The merchant key stays on the server, like the client secret.
    return ok(visible);
  },
  'POST /demo-api/onboarding-link': async ({ paykit }, body) => {
    const session = await paykit.merchants.createSession();
    return ok(
      await paykit.merchants.startHostedOnboarding(session.sessionToken, {
        company_id: 'demo-company',
        BusinessInfo: { business_name: text(body, 'business_name') || 'Hosted Bakery', business_country: 'US' },
      }),
    );
  },
  'POST /demo-api/approve': async ({ paykit }, body) => {
    await paykit.merchants.approve(text(body, 'merchant_id'));
    return ok(null);
  },
};

/** The answer for a failed call: the service's own status and message, so the page shows the real reason. */
export function failure(error: unknown): Answer {
  if (error instanceof BadRequest) return { status: 400, body: { result: false, message: error.message } };
  if (error instanceof PaykitError)
    return { status: error.status || 502, body: { result: false, message: error.message } };
  return {
    status: 502,
    body: { result: false, message: `The demo back end could not reach the service: ${String(error)}` },
  };
}
