import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../plugins/deps.ts';
import { notFound } from '../domain/refusals.ts';
import { failures } from '../schemas/envelope.ts';
import { CustomerParams } from '../schemas/customers.ts';
import {
  CustomerRequestAnswer,
  PaymentRequestAnswer,
  PaymentRequestBody,
  QrAnswer,
  QrBody,
} from '../schemas/payments.ts';
import { merchantByKey } from '../services/merchant-access.ts';
import { createPaymentRequest, type CreatedRequest } from '../services/payment-requests.ts';

const tags = ['Payment collection'];

export const requestRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { clock, config }) => {
  const requestAnswer = ({ request: created, payLink }: CreatedRequest) => {
    const sent = [created.phone && 'an SMS', created.email && 'an e-mail'].filter(Boolean).join(' and ');
    return {
      result: true,
      message: sent ? `Payment request created; ${sent} with the pay link has been sent.` : 'Payment request created.',
      data: { order_id: created.order_id, link_id: created.id, pay_link: payLink },
    };
  };

  app.post(
    '/requests',
    {
      schema: {
        operationId: 'requestPayment',
        tags,
        summary: 'Ask a customer to pay: a pay link, sent by SMS and/or e-mail',
        body: PaymentRequestBody,
        response: { 200: PaymentRequestAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = await merchantByKey(request.unit.store, request.client.id, request.body.merchant_key);
      const created = await createPaymentRequest(request.unit.store, merchant, request.body, {
        source: 'pay_link',
        now: clock.now(),
        publicUrl: config.publicUrl,
        minimumPayment: config.minimumPayment,
      });
      return request.unit.write(created.change, requestAnswer(created.result));
    },
  );

  app.post(
    '/requests/:customerId',
    {
      schema: {
        operationId: 'requestPaymentFromCustomer',
        tags,
        summary: 'Ask a stored customer to pay; the card they pay with is saved for later charges',
        params: CustomerParams,
        body: PaymentRequestBody,
        response: { 200: CustomerRequestAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = await merchantByKey(request.unit.store, request.client.id, request.body.merchant_key);
      const customer = await request.unit.store.customers.findById(merchant.id, request.params.customerId);
      if (!customer) throw notFound(`No customer ${request.params.customerId} for this merchant.`);
      const {
        change,
        result: { request: created, payLink },
      } = await createPaymentRequest(request.unit.store, merchant, request.body, {
        source: 'customer_request',
        customer,
        now: clock.now(),
        publicUrl: config.publicUrl,
        minimumPayment: config.minimumPayment,
      });
      return request.unit.write(change, {
        result: true,
        message: 'A text request has been sent to the customer.',
        data: { order_id: created.order_id, pay_link: payLink, sales_id: created.sales_id, link_id: created.id },
      });
    },
  );

  app.post(
    '/order/api-qr_code_link',
    {
      schema: {
        operationId: 'createQrLink',
        tags,
        summary: 'A QR code link for a payment',
        body: QrBody,
        response: { 200: QrAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = await merchantByKey(request.unit.store, request.client.id, request.body.merchant_key);
      const {
        change,
        result: { request: created, payLink, qrCodeLink },
      } = await createPaymentRequest(request.unit.store, merchant, request.body, {
        source: 'qr_code',
        now: clock.now(),
        publicUrl: config.publicUrl,
        minimumPayment: config.minimumPayment,
      });
      return request.unit.write(change, {
        result: true,
        message: 'QR code link created.',
        data: { order_id: created.order_id, qr_code_link: qrCodeLink, sales_id: created.sales_id, pay_link: payLink },
      });
    },
  );
};
