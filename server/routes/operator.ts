import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../plugins/deps.ts';
import type { Merchant } from '../store/merchants.ts';
import { failures } from '../schemas/envelope.ts';
import {
  ApplicationAnswer,
  ApplicationListAnswer,
  ApplicationListQuery,
  ApplicationParams,
  ApproveBody,
  DeclineBody,
  DecisionAnswer,
} from '../schemas/operator.ts';
import { findApplication, reviewApplication } from '../services/merchant-review.ts';

const summary = (m: Merchant) => ({
  merchant_id: m.id,
  client_id: m.client_id,
  company_id: m.company_id ?? '',
  business_name: m.business_name,
  email: m.email,
  status: m.status,
  submitted_at: m.submitted_at,
  decline_reason: m.decline_reason,
});

// The platform's own review of applications: not part of the partners' API reference.
const hide = true;

/** The review of onboarding applications by the platform's operators (`/operator/v1`, operator bearer token). */
export const operatorRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { clock }) => {
  app.get(
    '/merchants',
    {
      schema: { hide, querystring: ApplicationListQuery, response: { 200: ApplicationListAnswer, ...failures } },
    },
    async (request) => {
      const { status = 'pending', page, perPage } = request.query;
      const { items, total } = await request.unit.store.merchants.withStatus(status, perPage, (page - 1) * perPage);
      return {
        result: true,
        message: 'Applications retrieved.',
        data: { items: items.map(summary), page, perPage, totalCount: total },
      };
    },
  );

  app.get(
    '/merchants/:merchant',
    {
      schema: { hide, params: ApplicationParams, response: { 200: ApplicationAnswer, ...failures } },
    },
    async (request) => {
      const { store } = request.unit;
      const merchant = await findApplication(store, request.params.merchant);
      const reviews = await store.operators.reviewsOf(merchant.id);
      return {
        result: true,
        message: 'Application retrieved.',
        data: {
          ...summary(merchant),
          application: JSON.parse(merchant.application ?? '{}') as Record<string, unknown>,
          reviews: reviews.map(({ decision, reason, reviewer, decided_at }) => ({
            decision,
            reason,
            reviewer,
            decided_at,
          })),
        },
      };
    },
  );

  app.post(
    '/merchants/:merchant/approve',
    {
      schema: { hide, params: ApplicationParams, body: ApproveBody, response: { 200: DecisionAnswer, ...failures } },
    },
    async (request) => {
      const merchant = await findApplication(request.unit.store, request.params.merchant);
      const reviewed = await request.unit.transaction((tx) =>
        reviewApplication(tx, merchant, 'approved', request.body?.note ?? '', request.operator.name, clock.now()),
      );
      return {
        result: true,
        message: `Merchant ${merchant.id} approved; the partner hears merchant.approval and merchant_status.`,
        data: summary(reviewed),
      };
    },
  );

  app.post(
    '/merchants/:merchant/decline',
    {
      schema: { hide, params: ApplicationParams, body: DeclineBody, response: { 200: DecisionAnswer, ...failures } },
    },
    async (request) => {
      const merchant = await findApplication(request.unit.store, request.params.merchant);
      const reviewed = await request.unit.transaction((tx) =>
        reviewApplication(tx, merchant, 'declined', request.body.reason, request.operator.name, clock.now()),
      );
      return {
        result: true,
        message: `Merchant ${merchant.id} declined; the partner hears merchant_status with the reason.`,
        data: summary(reviewed),
      };
    },
  );
};
