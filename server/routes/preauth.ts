import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../plugins/deps.ts';
import { failures } from '../schemas/envelope.ts';
import {
  CaptureAnswer,
  CaptureBody,
  HoldAnswer,
  HoldListAnswer,
  HoldListQuery,
  HoldParams,
  HoldQuery,
  UpdatePreauthAnswer,
  UpdatePreauthBody,
  VoidPreauthAnswer,
  VoidPreauthBody,
} from '../schemas/payments.ts';
import { merchantByKey } from '../services/merchant-access.ts';
import { writeWithReceipt } from './shopper-receipts.ts';
import {
  capture,
  changeAuthorizedAmount,
  listHolds,
  readHold,
  releaseAuthorization,
} from '../services/preauthorizations.ts';

const tags = ['Preauthorizations'];

export const preauthRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { clock, config }) => {
  app.post(
    '/preauth/capture',
    {
      schema: {
        operationId: 'capturePreauth',
        tags,
        summary: 'Charge the amount authorized now (once)',
        body: CaptureBody,
        response: { 200: CaptureAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = await merchantByKey(request.unit.store, request.client.id, request.body.merchant_key);
      const captured = await capture(
        request.unit.store,
        merchant,
        request.body.transaction_id,
        request.body.last_authorized_amount,
        clock.now(),
      );
      // The shopper's receipt of the charge, as a paid pay link's (the hold's request names the phone or address).
      const answer = { result: true, message: 'Authorization captured.', data: captured.result };
      return writeWithReceipt(request, captured, answer, captured.result.transaction_id, {
        now: clock.now(),
        publicUrl: config.publicUrl,
      });
    },
  );

  app.post(
    '/preauth/update',
    {
      schema: {
        operationId: 'updatePreauth',
        tags,
        summary: 'Raise or lower the authorized amount',
        body: UpdatePreauthBody,
        response: { 200: UpdatePreauthAnswer, ...failures },
      },
    },
    async (request) => {
      const { merchant_key, transaction_id, last_authorized_amount, new_authorized_amount } = request.body;
      const merchant = await merchantByKey(request.unit.store, request.client.id, merchant_key);
      const { change, result: data } = await changeAuthorizedAmount(
        request.unit.store,
        merchant,
        transaction_id,
        last_authorized_amount,
        new_authorized_amount,
        clock.now(),
        {},
        config.minimumPayment,
      );
      return request.unit.write(change, {
        result: true,
        message: `Authorized amount ${data.change === 'increment' ? 'raised' : 'lowered'} to ${data.authorized_amount}.`,
        data,
      });
    },
  );

  app.get(
    '/preauth',
    {
      schema: {
        operationId: 'listPreauths',
        tags,
        summary: "List the merchant's preauthorizations (holds), newest first",
        querystring: HoldListQuery,
        response: { 200: HoldListAnswer, ...failures },
      },
    },
    async (request) => {
      const { merchant_key, status, page, perPage, cursor } = request.query;
      const merchant = await merchantByKey(request.unit.store, request.client.id, merchant_key);
      return {
        result: true,
        message: 'Preauthorizations retrieved.',
        data: await listHolds(request.unit.store, merchant, status, page, perPage, cursor),
      };
    },
  );

  app.get(
    '/preauth/:transaction_id',
    {
      schema: {
        operationId: 'getPreauth',
        tags,
        summary: 'Read one preauthorization: the amount authorized now and its state',
        params: HoldParams,
        querystring: HoldQuery,
        response: { 200: HoldAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = await merchantByKey(request.unit.store, request.client.id, request.query.merchant_key);
      return {
        result: true,
        message: 'Preauthorization retrieved.',
        data: await readHold(request.unit.store, merchant, request.params.transaction_id),
      };
    },
  );

  app.post(
    '/preauth/void',
    {
      schema: {
        operationId: 'voidPreauth',
        tags,
        summary: 'Release an authorization; it can no longer be captured',
        body: VoidPreauthBody,
        response: { 200: VoidPreauthAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = await merchantByKey(request.unit.store, request.client.id, request.body.merchant_key);
      const released = await releaseAuthorization(
        request.unit.store,
        merchant,
        request.body.transaction_id,
        clock.now(),
      );
      return request.unit.write(released.change, {
        result: true,
        message: 'Authorization voided.',
        data: released.result,
      });
    },
  );
};
