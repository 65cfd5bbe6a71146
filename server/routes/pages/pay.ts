import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import QRCode from 'qrcode';
import type { Deps } from '../../deps.ts';
import type { PaymentRequest } from '../../store/payment-requests.ts';
import type { PaymentMethod } from '../../domain/pricing.ts';
import { completeChallenge, openPayLink, payLink, type PayOutcome, type PaymentDetails } from '../../services/pay.ts';
import { LINK_PROBLEMS, payPath, qrPath } from '../../domain/pay-links.ts';
import { payPage, type PayFormValues } from '../../pages/pay-form.ts';
import { approvedPage, challengePage, declinedPage, payLinkProblemPage, pendingPage } from '../../pages/pay-outcome.ts';
import type { PayContext } from '../../pages/pay-summary.ts';
import type { Page } from '../../pages/layout.ts';
import { sendPage } from './send.ts';
import { STATUS_OF_REASON } from '../../plugins/refusal-status.ts';
import { originAllowed, settingsOf } from '../../services/widgets.ts';

interface LinkRoute {
  Params: { token: string };
  Querystring: { origin?: string };
}

/** The opener's origin when it is exactly an http(s) origin; anything else is ignored, so nothing is posted. */
export function openerOrigin(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.origin === value.replace(/\/$/, '') ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The posted form's text fields; anything else (repeated or missing keys) reads as empty. */
function formFields(body: unknown): Record<string, string> {
  const fields = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

const digitsOnly = (text: string | undefined) => (text ?? '').replace(/\s/g, '');

/** The card or bank details as the one payment path takes them; a year that is not 2 or 4 digits is the page's own error. */
function readDetails(method: PaymentMethod, form: Record<string, string>): PaymentDetails | { formError: string } {
  if (method === 'ach') {
    return { method, routingNumber: digitsOnly(form.routing_number), accountNumber: digitsOnly(form.account_number), name: form.account_name?.trim() || undefined };
  }
  const month = digitsOnly(form.exp_month);
  const year = digitsOnly(form.exp_year);
  if (!/^\d{2}(\d{2})?$/.test(year)) return { formError: 'Enter the expiry year as 2 or 4 digits, e.g. 29 or 2029.' };
  return {
    method,
    card: { number: form.card_number ?? '', expMonth: /^\d{1,2}$/.test(month) ? Number(month) : Number.NaN, expYear: Number(year), cvc: digitsOnly(form.cvc) },
  };
}

/** Only what may be shown again: never the card number, the security code or the account number. */
function keptValues(form: Record<string, string>): PayFormValues {
  return { card_name: form.card_name, exp_month: form.exp_month, exp_year: form.exp_year, account_name: form.account_name, routing_number: form.routing_number };
}

/** The hosted pay page, its 3-D Secure step and its QR code, all on the one payment path of `services/pay.ts`. */
export const payPages: FastifyPluginAsync<Deps> = async (app, { store, clock, config }) => {
  const path = payPath(':token');
  const sandbox = config.environment === 'sandbox';

  /** The page's context; `origin` is kept only when it is one the merchant's widgets may be used on. */
  async function contextFor(request: PaymentRequest, token: string, origin: string | undefined): Promise<PayContext> {
    const merchant = await store.merchants.findByIdUnscoped(request.merchant_id);
    const permitted = origin && originAllowed(settingsOf(await store.widgets.settings(request.merchant_id)), origin, sandbox) ? origin : undefined;
    return { request, merchantName: merchant?.business_name ?? 'the merchant', token, origin: permitted, sandbox };
  }

  /** A page of this payment: framable by the permitted origin, and reporting to it where the page has a script. */
  function send(reply: FastifyReply, context: PayContext, render: (nonce: string | undefined) => Page): FastifyReply {
    const nonce = context.origin ? randomBytes(16).toString('base64') : undefined;
    return sendPage(reply, render(nonce), { frameOrigin: context.origin, scriptNonce: nonce });
  }

  async function answer(reply: FastifyReply, token: string, outcome: PayOutcome, method: PaymentMethod, form: Record<string, string>, origin: string | undefined) {
    if (outcome.status === 'refused') {
      if (outcome.linkProblem || !outcome.request) return sendPage(reply, payLinkProblemPage(outcome.linkProblem ?? 'unknown'));
      const context = await contextFor(outcome.request, token, origin);
      return sendPage(reply, payPage(context, { values: keptValues(form), problem: { method, message: outcome.message }, status: STATUS_OF_REASON[outcome.reason] }), { frameOrigin: context.origin });
    }
    const context = await contextFor(outcome.request, token, origin);
    switch (outcome.status) {
      case 'approved': return send(reply, context, (nonce) => approvedPage(context, outcome, nonce));
      case 'pending': return send(reply, context, (nonce) => pendingPage(context, outcome.transactionId, nonce));
      case 'declined': return send(reply, context, (nonce) => declinedPage(context, method, outcome.message, nonce));
      case 'challenge': return sendPage(reply, challengePage(context, outcome.attemptToken), { frameOrigin: context.origin });
    }
  }

  app.get<LinkRoute>(path, { schema: { hide: true } }, async (request, reply) => {
    const link = await openPayLink(store, request.params.token, clock.now());
    if (!link.ok) return sendPage(reply, payLinkProblemPage(link.problem));
    const context = await contextFor(link.request, request.params.token, openerOrigin(request.query.origin));
    return sendPage(reply, payPage(context), { frameOrigin: context.origin });
  });

  app.post<LinkRoute>(path, { schema: { hide: true } }, async (request, reply) => {
    const { token } = request.params;
    const form = formFields(request.body);
    const origin = openerOrigin(form.origin);
    const method = form.method === 'ach' ? 'ach' : form.method === 'card' ? 'card' : undefined;
    const details = method && readDetails(method, form);
    if (!method || !details || 'formError' in details) {
      const link = await openPayLink(store, token, clock.now());
      if (!link.ok) return sendPage(reply, payLinkProblemPage(link.problem));
      const message = details && 'formError' in details ? details.formError : 'Choose how to pay: by card or from a bank account.';
      const context = await contextFor(link.request, token, origin);
      return sendPage(reply, payPage(context, { values: keptValues(form), problem: { method: method ?? 'card', message } }), { frameOrigin: context.origin });
    }
    return answer(reply, token, await payLink(store, token, details, clock.now(), true), method, form, origin);
  });

  app.post<LinkRoute>(`${path}/3ds`, { schema: { hide: true } }, async (request, reply) => {
    const form = formFields(request.body);
    const outcome = await completeChallenge(store, request.params.token, form.attempt ?? '', form.result === 'pass', clock.now());
    return answer(reply, request.params.token, outcome, 'card', form, openerOrigin(form.origin));
  });

  // The image encodes the link only, so a paid or expired link still gets it: the page says the rest.
  app.get<LinkRoute>(qrPath(':token'), { schema: { hide: true } }, async (request, reply) => {
    const link = await openPayLink(store, request.params.token, clock.now());
    if (!link.ok && link.problem === 'unknown') {
      return reply.code(404).type('text/plain; charset=utf-8').header('x-content-type-options', 'nosniff').send(LINK_PROBLEMS.unknown);
    }
    const image = await QRCode.toBuffer(`${config.publicUrl}${payPath(request.params.token)}`, { type: 'png', margin: 2, width: 320 });
    return reply
      .code(200)
      .headers({ 'content-type': 'image/png', 'cache-control': 'private, max-age=300', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' })
      .send(image);
  });
};
