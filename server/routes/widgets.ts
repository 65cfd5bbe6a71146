import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../plugins/deps.ts';
import { notFound } from '../domain/refusals.ts';
import { formatAmount } from '../domain/money.ts';
import { subtotal } from '../domain/payment-amounts.ts';
import { paidLinkOutcome, payLinkStatus } from '../domain/pay-links.ts';
import { failures } from '../schemas/envelope.ts';
import {
  LinkParams,
  PublicKeyParams,
  WidgetLinkStatusAnswer,
  WidgetPayLinkAnswer,
  WidgetPayLinkBody,
  WidgetPaymentRequestAnswer,
  WidgetPaymentRequestBody,
  WidgetSettingsAnswer,
} from '../schemas/widgets.ts';
import { createWidgetPayLink, createWidgetPaymentRequest, settingsOf } from '../services/widgets.ts';
import { consoleRoutes } from './console.ts';
import { consolePayoutRoutes } from './console-payouts.ts';
import { consoleDisputeRoutes } from './console-disputes.ts';
import { guardWidgetCalls } from '../plugins/widget-access.ts';

const tags = ['Widgets'];

/** The calls the elements make: by public key in the path, or with a widget session token. */
export const widgetRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, deps) => {
  const { clock, config } = deps;
  guardWidgetCalls(app, { config });

  const preflight = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.code(204).header('access-control-allow-methods', 'GET, POST, OPTIONS').send();
  app.options('/widgets/:public_key/*', { schema: { hide: true } }, preflight);
  app.options('/widgets/transactions', { schema: { hide: true } }, preflight);

  app.get(
    '/widgets/:public_key/settings',
    {
      schema: {
        operationId: 'getWidgetSettings',
        tags,
        summary: "The merchant's widget settings (public key)",
        params: PublicKeyParams,
        response: { 200: WidgetSettingsAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = request.widgetMerchant!;
      const settings = settingsOf(await request.unit.store.widgets.settings(merchant.id));
      return {
        result: true,
        message: 'Widget settings retrieved.',
        data: {
          merchant_name: merchant.business_name,
          environment: config.environment,
          button_label: settings.button_label,
          primary_color: settings.primary_color,
          text_color: settings.text_color,
        },
      };
    },
  );

  app.post(
    '/widgets/:public_key/pay-links',
    {
      schema: {
        operationId: 'createWidgetPayLink',
        tags,
        summary: 'Create a pay link (public key)',
        params: PublicKeyParams,
        body: WidgetPayLinkBody,
        response: { 200: WidgetPayLinkAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = request.widgetMerchant!;
      const {
        change,
        result: { request: created, payLink },
      } = await createWidgetPayLink(request.unit.store, merchant, request.body, {
        now: clock.now(),
        publicUrl: config.publicUrl,
        minimumPayment: config.minimumPayment,
      });
      return request.unit.write(change, {
        result: true,
        message: 'Pay link created.',
        data: {
          link_id: created.id,
          pay_link: payLink,
          order_id: created.order_id,
          amount: formatAmount(subtotal({ ...created, passFee: false })),
          expires_at: created.expires_at,
        },
      });
    },
  );

  app.get(
    '/widgets/:public_key/pay-links/:link_id',
    {
      schema: {
        operationId: 'getWidgetPayLink',
        tags,
        summary: "A pay link's outcome (public key)",
        params: LinkParams,
        response: { 200: WidgetLinkStatusAnswer, ...failures },
      },
    },
    async (request) => {
      const { store } = request.unit;
      const link = await store.paymentRequests.findById(request.widgetMerchant!.id, request.params.link_id);
      if (!link) throw notFound(`No pay link ${request.params.link_id} for this merchant.`);
      const payment = link.transaction_id
        ? await store.transactions.find(request.widgetMerchant!.id, link.transaction_id)
        : undefined;
      const status = paidLinkOutcome(payLinkStatus(link, clock.now()), payment?.status);
      return {
        result: true,
        message: 'Pay link retrieved.',
        data: {
          link_id: link.id,
          status,
          order_id: link.order_id,
          amount: formatAmount(subtotal({ ...link, passFee: false })),
          transaction_id: link.transaction_id,
        },
      };
    },
  );

  app.post(
    '/widgets/:public_key/payment-requests',
    {
      schema: {
        operationId: 'createWidgetPaymentRequest',
        tags,
        summary: 'Text a pay link to a phone (public key)',
        params: PublicKeyParams,
        body: WidgetPaymentRequestBody,
        response: { 200: WidgetPaymentRequestAnswer, ...failures },
      },
    },
    async (request) => {
      const {
        change,
        result: { request: created, payLink },
      } = await createWidgetPaymentRequest(request.unit.store, request.widgetMerchant!, request.body, {
        now: clock.now(),
        publicUrl: config.publicUrl,
        minimumPayment: config.minimumPayment,
      });
      return request.unit.write(change, {
        result: true,
        message: `A text with the pay link was sent to ${created.phone}.`,
        data: { order_id: created.order_id, pay_link: payLink },
      });
    },
  );

  await app.register(consoleRoutes, deps);
  await app.register(consolePayoutRoutes, deps);
  await app.register(consoleDisputeRoutes, deps);
};
