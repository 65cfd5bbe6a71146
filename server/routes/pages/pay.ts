import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import type { Deps } from '../../plugins/deps.ts';
import { pooledRandomBytes } from '../../platform/secrets.ts';
import type { PaymentRequest } from '../../store/payment-requests.ts';
import type { PaymentMethod } from '../../domain/pricing.ts';
import {
  completeChallenge,
  openPayLink,
  payLink,
  type Paid,
  type PayOutcome,
  type PaymentDetails,
} from '../../services/pay.ts';
import type { Store } from '../../store/store.ts';
import { sendShopperReceipt } from '../shopper-receipts.ts';
import { isEmail } from '../../domain/contact.ts';
import { LINK_PROBLEMS, payPath, qrPath } from '../../domain/pay-links.ts';
import { payPage, type PayFormProblem, type PayFormValues } from '../../views/pay-form.ts';
import { askedLocale, pageLocale, type PageLocale } from '../../views/i18n/language.ts';
import {
  approvedPage,
  challengePage,
  declineReport,
  payLinkProblemPage,
  pendingPage,
} from '../../views/pay-outcome.ts';
import type { PayContext } from '../../views/pay-summary.ts';
import type { Page } from '../../views/layout.ts';
import { sendPage } from './send.ts';
import { STATUS_OF_REASON } from '../../plugins/refusal-status.ts';
import { originAllowed, settingsOf } from '../../services/widgets.ts';
import { merchantBrand } from '../../services/branding.ts';

interface LinkRoute {
  Params: { token: string };
  Querystring: { origin?: string; locale?: string };
}

/** The opener's origin when it is exactly an http(s) origin; anything else is ignored, so nothing is posted. */
function openerOrigin(value: unknown): string | undefined {
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
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

const digitsOnly = (text: string | undefined) => (text ?? '').replace(/\s/g, '');

/** The expiry as the form sends it, one `MM / YY` field (`12 / 29`, `12/2029`, `1229`). */
function readExpiry(form: Record<string, string>): { month: number; year: number } | undefined {
  const parts = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(form.exp ?? '');
  return parts ? { month: Number(parts[1]), year: Number(parts[2]) } : undefined;
}

/** The card or bank details as the one payment path takes them; an expiry that is not MM / YY is the page's own error. */
function readDetails(
  method: PaymentMethod,
  form: Record<string, string>,
  lang: PageLocale,
): PaymentDetails | { formError: string; field: string } {
  // An address for the receipt is never required; one that is given must be one (issue 44).
  const receiptEmail = form.receipt_email?.trim() || undefined;
  if (receiptEmail && !isEmail(receiptEmail))
    return { formError: lang.texts.pay.receiptEmailInvalid, field: `${method}-receipt-email` };
  if (method === 'ach') {
    return {
      receiptEmail,
      method,
      routingNumber: digitsOnly(form.routing_number),
      accountNumber: digitsOnly(form.account_number),
      name: form.account_name?.trim() || undefined,
    };
  }
  const expiry = readExpiry(form);
  if (!expiry) return { formError: lang.texts.pay.expiryFormat, field: 'card-exp' };
  return {
    receiptEmail,
    method,
    card: { number: form.card_number ?? '', expMonth: expiry.month, expYear: expiry.year, cvc: digitsOnly(form.cvc) },
  };
}

/**
 * Only what may be shown again: never the card number, the security code or the account number. The 3-D Secure
 * step's form carries the name and the expiry on, for the form after its decline.
 */
function keptValues(form: Record<string, string>): PayFormValues {
  return {
    card_name: form.card_name,
    receipt_email: form.receipt_email,
    exp: form.exp,
    account_name: form.account_name,
    routing_number: form.routing_number,
  };
}

/** The hosted pay page, its 3-D Secure step and its QR code, all on the one payment path of `services/pay.ts`. */
export const payPages: FastifyPluginAsync<Deps> = async (app, { clock, config }) => {
  const path = payPath(':token');
  const sandbox = config.environment === 'sandbox';

  /** The page's context; `origin` is kept only when it is one the merchant's widgets may be used on. */
  async function contextFor(
    store: Store,
    request: PaymentRequest,
    token: string,
    origin: string | undefined,
    lang: PageLocale,
  ): Promise<PayContext> {
    const [merchant, settings] = await Promise.all([
      store.merchants.findByIdUnscoped(request.merchant_id),
      store.widgets.settings(request.merchant_id),
    ]);
    const permitted = origin && originAllowed(settingsOf(settings), origin, sandbox) ? origin : undefined;
    const merchantName = merchant?.business_name ?? 'the merchant';
    const brand = merchant ? await merchantBrand(store, merchant, settings) : { name: merchantName };
    return { request, merchantName, token, origin: permitted, sandbox, lang, brand };
  }

  /** Why a link shows no form; a paid or expired link's page is still in its merchant's brand. */
  async function sendProblem(
    store: Store,
    reply: FastifyReply,
    problem: keyof typeof LINK_PROBLEMS,
    request: PaymentRequest | undefined,
    lang: PageLocale,
  ) {
    const merchant = request && (await store.merchants.findByIdUnscoped(request.merchant_id));
    return sendPage(
      reply,
      payLinkProblemPage(problem, lang, merchant ? await merchantBrand(store, merchant) : undefined),
    );
  }

  /**
   * A page of this payment: framable by the permitted origin, with its one script allowed by a nonce (the card
   * form's checks, or the report of the outcome to the opener); `scripted` says whether the page has one.
   */
  function send(
    reply: FastifyReply,
    context: PayContext,
    render: (nonce: string | undefined) => Page,
    scripted = context.origin !== undefined,
  ): Promise<FastifyReply> {
    const nonce = scripted ? pooledRandomBytes(16).toString('base64') : undefined;
    return sendPage(reply, render(nonce), { frameOrigin: context.origin, scriptNonce: nonce });
  }

  /** The pay form, with its scripts (the card form's checks, Escape in the dialog) when an opener is permitted. */
  const sendForm = (reply: FastifyReply, context: PayContext, state?: Parameters<typeof payPage>[1]) =>
    send(
      reply,
      context,
      (nonce) => payPage(context, state, nonce),
      context.request.allow_card === 1 || context.origin !== undefined,
    );

  /** The page's language: the one the pay button asked for (`locale`, kept by the forms), else the browser's. */
  const languageOf = (request: FastifyRequest, asked: unknown) =>
    pageLocale(askedLocale(asked), request.headers['accept-language']);

  async function answer(
    store: Store,
    reply: FastifyReply,
    token: string,
    outcome: PayOutcome,
    method: PaymentMethod,
    form: Record<string, string>,
    origin: string | undefined,
    lang: PageLocale,
  ) {
    if (outcome.status === 'refused') {
      if (outcome.linkProblem || !outcome.request)
        return sendProblem(store, reply, outcome.linkProblem ?? 'unknown', outcome.request, lang);
      const context = await contextFor(store, outcome.request, token, origin, lang);
      return sendForm(reply, context, {
        values: keptValues(form),
        problem: { method, message: outcome.message },
        status: STATUS_OF_REASON[outcome.reason],
      });
    }
    const context = await contextFor(store, outcome.request, token, origin, lang);
    switch (outcome.status) {
      case 'approved':
        return send(reply, context, (nonce) => approvedPage(context, outcome, nonce));
      case 'pending':
        return send(reply, context, (nonce) => pendingPage(context, outcome.transactionId, nonce));
      case 'declined': {
        const state = (nonce: string | undefined) => ({
          values: keptValues(form),
          problem: { method, message: outcome.message },
          status: 402,
          declined: true,
          after: declineReport(context, method, outcome.message, nonce),
        });
        return send(reply, context, (nonce) => payPage(context, state(nonce), nonce), true);
      }
      case 'challenge': {
        const { card_name, exp, receipt_email } = keptValues(form);
        return send(reply, context, (nonce) =>
          challengePage(context, outcome.attemptToken, { card_name, exp, receipt_email }, nonce),
        );
      }
    }
  }

  app.get<LinkRoute>(path, { schema: { hide: true } }, async (request, reply) => {
    const lang = languageOf(request, request.query.locale);
    const { store } = request.unit;
    const link = await openPayLink(store, request.params.token, clock.now());
    if (!link.ok) return sendProblem(store, reply, link.problem, link.request, lang);
    // The receipt field starts with the address a pay button passed, if any: the shopper may change or clear it.
    return sendForm(
      reply,
      await contextFor(store, link.request, request.params.token, openerOrigin(request.query.origin), lang),
      { values: { receipt_email: link.request.receipt_email ?? undefined } },
    );
  });

  /** Writes the payment's change, then a paid sale's receipt, in the language the shopper paid in. */
  const written = async (request: FastifyRequest, { outcome, change }: Paid, language: string) => {
    if (change) await request.unit.write(change);
    if (outcome.status !== 'approved' || outcome.kind !== 'sale') return outcome;
    await sendShopperReceipt(request, outcome.request.merchant_id, outcome.transactionId, {
      now: clock.now(),
      publicUrl: config.publicUrl,
      language,
    });
    return outcome;
  };

  app.post<LinkRoute>(path, { schema: { hide: true } }, async (request, reply) => {
    const { token } = request.params;
    const form = formFields(request.body);
    const lang = languageOf(request, form.locale);
    const origin = openerOrigin(form.origin);
    const method = form.method === 'ach' ? 'ach' : form.method === 'card' ? 'card' : undefined;
    const details = method && readDetails(method, form, lang);
    const { store } = request.unit;
    if (!method || !details || 'formError' in details) {
      const link = await openPayLink(store, token, clock.now());
      if (!link.ok) return sendProblem(store, reply, link.problem, link.request, lang);
      const problem: PayFormProblem =
        details && 'formError' in details
          ? { method, message: details.formError, field: details.field }
          : { method: method ?? 'card', message: lang.texts.pay.chooseMethod };
      const context = await contextFor(store, link.request, token, origin, lang);
      return sendForm(reply, context, { values: keptValues(form), problem });
    }
    const outcome = await written(request, await payLink(store, token, details, clock.now(), true), lang.language);
    return answer(store, reply, token, outcome, method, form, origin, lang);
  });

  app.post<LinkRoute>(`${path}/3ds`, { schema: { hide: true } }, async (request, reply) => {
    const form = formFields(request.body);
    const { store } = request.unit;
    const lang = languageOf(request, form.locale);
    const outcome = await written(
      request,
      await completeChallenge(
        store,
        request.params.token,
        form.attempt ?? '',
        form.result === 'pass',
        clock.now(),
        // Checked on the form before the challenge; a tampered one is dropped rather than kept.
        form.receipt_email && isEmail(form.receipt_email.trim()) ? form.receipt_email.trim() : undefined,
      ),
      lang.language,
    );
    return answer(store, reply, request.params.token, outcome, 'card', form, openerOrigin(form.origin), lang);
  });

  // The image encodes the link only, so a paid or expired link still gets it: the page says the rest.
  app.get<LinkRoute>(qrPath(':token'), { schema: { hide: true } }, async (request, reply) => {
    const link = await openPayLink(request.unit.store, request.params.token, clock.now());
    if (!link.ok && link.problem === 'unknown') {
      return reply
        .code(404)
        .type('text/plain; charset=utf-8')
        .header('x-content-type-options', 'nosniff')
        .send(LINK_PROBLEMS.unknown);
    }
    const image = await QRCode.toBuffer(`${config.publicUrl}${payPath(request.params.token)}`, {
      type: 'png',
      margin: 2,
      width: 320,
    });
    return reply
      .code(200)
      .headers({
        'content-type': 'image/png',
        'cache-control': 'private, max-age=300',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      })
      .send(image);
  });
};
