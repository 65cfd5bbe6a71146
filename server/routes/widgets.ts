import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import type { Merchant } from '../store/merchants.ts';
import { Refusal, forbidden, notFound, rateLimited } from '../domain/refusals.ts';
import { formatAmount, toMajorNumber } from '../domain/money.ts';
import { subtotal } from '../domain/payment-amounts.ts';
import { failures } from '../schemas/envelope.ts';
import {
  LinkParams, PublicKeyParams, WidgetLinkStatusAnswer, WidgetPayLinkAnswer, WidgetPayLinkBody, WidgetPaymentRequestAnswer,
  WidgetPaymentRequestBody, WidgetSettingsAnswer, WidgetTransactionsAnswer, WidgetTransactionsQuery,
} from '../schemas/widgets.ts';
import { createPaymentRequest } from '../services/payment-requests.ts';
import {
  merchantOfSession, originAllowed, settingsOf, UNKNOWN_PUBLIC_KEY, WIDGET_TEXTS_PER_PHONE_PER_HOUR, widgetWriteRefusal,
} from '../services/widgets.ts';
import { readRange } from '../services/date-range.ts';
import { RateLimiter } from '../plugins/rate-limit.ts';
import { newToken } from '../secrets.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The merchant a widget call's public key names. */
    widgetMerchant: Merchant | null;
  }
}

const tags = ['Widgets'];
/** What `<transactions-table>` lists: the merchant's completed transactions (contract), i.e. sales that went through and stand. */
const COMPLETED_SALES = { kinds: ['sale'], statuses: ['completed'] } as const;
const ALLOW_HEADERS = 'content-type, authorization';

function allowOrigin(reply: FastifyReply, origin: string): void {
  reply.header('access-control-allow-origin', origin).header('access-control-allow-headers', ALLOW_HEADERS).header('access-control-max-age', '600');
}

/**
 * The calls the elements make. Public-key calls name the merchant in the path, so even a CORS preflight knows
 * whose allowed origins apply. The session-token listing allows any page: the token is the credential.
 */
export const widgetRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { store, clock, config }) => {
  const writes = new RateLimiter(60);
  const reads = new RateLimiter(300);
  const sandbox = config.environment === 'sandbox';
  app.decorateRequest('widgetMerchant', null);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    const publicKey = (request.params as { public_key?: string }).public_key;
    if (publicKey === undefined) {
      if (origin) allowOrigin(reply, origin);
    } else {
      const merchant = /^pk_[\w-]+$/.test(publicKey) ? await store.merchants.findByPublicKey(publicKey) : undefined;
      if (!merchant) {
        // Nothing of anyone's is behind an unknown key, so any page may read that it is unknown: the preflight
        // passes, and the call itself answers 404.
        if (origin) allowOrigin(reply, origin);
        if (request.method === 'OPTIONS') return;
        throw notFound(UNKNOWN_PUBLIC_KEY);
      }
      request.widgetMerchant = merchant;
      const settings = settingsOf(await store.widgets.settings(merchant.id));
      if (origin && originAllowed(settings, origin, sandbox)) allowOrigin(reply, origin);
      if (request.method === 'POST') {
        // JSON only: a text/plain or form POST needs no preflight, so any page could send one.
        if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) {
          throw new Refusal('unsupported_content_type', 'Widget calls send application/json.');
        }
        const refusal = widgetWriteRefusal(settings, origin, sandbox);
        if (refusal) throw forbidden(refusal);
      }
    }
    if (request.method === 'OPTIONS') return;
    const limiter = request.method === 'GET' ? reads : writes;
    const wait = limiter.take(`${publicKey ?? 'session'}|${request.ip}`);
    if (wait > 0) throw rateLimited(`Too many requests: try again in ${wait} seconds.`, wait);
  });

  const preflight = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.code(204).header('access-control-allow-methods', 'GET, POST, OPTIONS').send();
  app.options('/widgets/:public_key/*', { schema: { hide: true } }, preflight);
  app.options('/widgets/transactions', { schema: { hide: true } }, preflight);

  app.get('/widgets/:public_key/settings', {
    schema: { tags, summary: "The merchant's widget settings (public key)", params: PublicKeyParams, response: { 200: WidgetSettingsAnswer, ...failures } },
  }, async (request) => {
    const merchant = request.widgetMerchant!;
    const settings = settingsOf(await store.widgets.settings(merchant.id));
    return {
      result: true,
      message: 'Widget settings retrieved.',
      data: { merchant_name: merchant.business_name, environment: config.environment, button_label: settings.button_label, primary_color: settings.primary_color, text_color: settings.text_color },
    };
  });

  app.post('/widgets/:public_key/pay-links', {
    schema: { tags, summary: 'Create a pay link (public key)', params: PublicKeyParams, body: WidgetPayLinkBody, response: { 200: WidgetPayLinkAnswer, ...failures } },
  }, async (request) => {
    const merchant = request.widgetMerchant!;
    const { request: created, payLink } = await createPaymentRequest(store, merchant, {
      amount: request.body.amount, order_id: request.body.order_id ?? `w_${newToken('').slice(0, 16)}`, description: request.body.description,
    }, { source: 'pay_link', now: clock.now(), publicUrl: config.publicUrl });
    return {
      result: true,
      message: 'Pay link created.',
      data: { link_id: created.id, pay_link: payLink, order_id: created.order_id, amount: formatAmount(subtotal({ ...created, passFee: false })), expires_at: created.expires_at },
    };
  });

  app.get('/widgets/:public_key/pay-links/:link_id', {
    schema: { tags, summary: "A pay link's outcome (public key)", params: LinkParams, response: { 200: WidgetLinkStatusAnswer, ...failures } },
  }, async (request) => {
    const link = await store.paymentRequests.findById(request.widgetMerchant!.id, request.params.link_id);
    if (!link) throw notFound(`No pay link ${request.params.link_id} for this merchant.`);
    const status: 'open' | 'paid' | 'expired' = link.status === 'paid' ? 'paid' : link.expires_at <= clock.now().toISOString() ? 'expired' : 'open';
    return {
      result: true,
      message: 'Pay link retrieved.',
      data: { link_id: link.id, status, order_id: link.order_id, amount: formatAmount(subtotal({ ...link, passFee: false })), transaction_id: link.transaction_id },
    };
  });

  app.post('/widgets/:public_key/payment-requests', {
    schema: { tags, summary: 'Text a pay link to a phone (public key)', params: PublicKeyParams, body: WidgetPaymentRequestBody, response: { 200: WidgetPaymentRequestAnswer, ...failures } },
  }, async (request) => {
    const { request: created, payLink } = await createPaymentRequest(store, request.widgetMerchant!, {
      amount: request.body.amount, phone_number: request.body.recipient_phone, order_id: request.body.order_id ?? `w_${newToken('').slice(0, 16)}`,
    }, { source: 'pay_link', now: clock.now(), publicUrl: config.publicUrl, textsPerPhonePerHour: WIDGET_TEXTS_PER_PHONE_PER_HOUR });
    return { result: true, message: `A text with the pay link was sent to ${created.phone}.`, data: { order_id: created.order_id, pay_link: payLink } };
  });

  app.get('/widgets/transactions', {
    schema: { tags, summary: "The merchant's completed transactions (Bearer session token)", querystring: WidgetTransactionsQuery, response: { 200: WidgetTransactionsAnswer, ...failures } },
  }, async (request, reply) => {
    let merchantId: string;
    try {
      merchantId = await merchantOfSession(store, request.headers.authorization, clock.now());
    } catch (error) {
      reply.header('www-authenticate', 'Bearer');
      throw error;
    }
    const { page, perPage, from_date, to_date } = request.query;
    const { items, total } = await store.transactions.page(merchantId, { ...readRange(from_date, to_date), ...COMPLETED_SALES }, perPage, (page - 1) * perPage);
    return {
      result: true,
      message: 'Transactions retrieved.',
      data: {
        items: items.map((t) => ({
          transaction_id: t.id, created_date: t.created_at, amount: formatAmount(t.amount), net_amount: toMajorNumber(t.net_amount).toFixed(2),
          card_brand: t.card_brand, last_four: t.last_four, status: t.status, type: t.kind,
        })),
        page, perPage, totalCount: total,
      },
    };
  });
};
