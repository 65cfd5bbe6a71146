import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import { StatusAnswer, failures } from '../schemas/envelope.ts';
import { ApproveMerchantBody } from '../schemas/merchants.ts';
import { approveMerchant } from '../services/onboarding.ts';

const tags = ['Sandbox'];

/** Calls that exist in the sandbox only; production answers them with `result: false`. */
export const sandboxRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { store, clock, config }) => {
  app.addHook('onRequest', async () => {
    if (config.environment !== 'sandbox') throw new ApiError(403, 'This call exists in the sandbox only.');
  });

  app.post('/approve-merchant', {
    config: { envelope: 'status' },
    schema: { tags, summary: 'Approve a pending merchant (sandbox)', body: ApproveMerchantBody, response: { 200: StatusAnswer, ...failures } },
  }, async (request) => {
    await approveMerchant(store, request.client.id, request.body.merchant_id, clock.now());
    return { status: true, message: 'Merchant approved; merchant.approval dispatch started.' };
  });
};
