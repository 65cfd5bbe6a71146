import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../plugins/deps.ts';
import { failures } from '../schemas/envelope.ts';
import { MerchantListAnswer } from '../schemas/merchants.ts';
import { addEtags } from '../plugins/etag.ts';
import { UnchangedAnswers } from '../plugins/unchanged-answers.ts';

export const merchantRoutes: FastifyPluginAsyncTypebox<Deps> = async (app) => {
  addEtags(app);
  // Partners poll their merchant list far more often than it changes.
  const lists = new UnchangedAnswers();
  app.get(
    '/merchant',
    {
      schema: {
        operationId: 'listMerchants',
        tags: ['Merchant onboarding'],
        summary: 'List your merchants, newest first',
        response: { 200: MerchantListAnswer, ...failures },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-cache');
      return lists.send(reply, request.unit.store, request.client.id, async () => ({
        result: true,
        message: 'Merchants retrieved.',
        data: (await request.unit.store.merchants.listForClient(request.client.id)).map((m) => ({
          businessname: m.business_name,
          email: m.email,
          first_name: m.first_name,
          last_name: m.last_name,
          join_date: m.created_at,
          merchant_id: m.id,
          phonenumber: m.phone,
          public_data: { public_key: m.public_key },
          website: m.website,
        })),
      }));
    },
  );
};
