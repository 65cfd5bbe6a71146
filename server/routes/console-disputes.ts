import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../plugins/deps.ts';
import { ConsoleLimits } from '../plugins/console-limits.ts';
import { honourIdempotencyKeys } from '../plugins/idempotency.ts';
import { unauthenticated } from '../domain/refusals.ts';
import { failures } from '../schemas/envelope.ts';
import {
  ConsoleDisputeListQuery,
  ConsoleEvidenceBody,
  DisputeAnswer,
  DisputeFileAnswer,
  DisputeFileParams,
  DisputeListAnswer,
  DisputeParams,
  EVIDENCE_BODY_LIMIT_BYTES,
} from '../schemas/disputes.ts';
import { BAD_SESSION, requireFeature } from '../services/widgets.ts';
import {
  acceptDispute,
  disputeDetails,
  disputeAfter,
  evidenceFile,
  listDisputes,
  saveEvidence,
  submitDispute,
} from '../services/disputes.ts';

const tags = ['Widgets'];

/**
 * The console's disputes (`<transactions-table>` with the `disputes` feature, docs/disputes.md): the API's calls with a
 * widget session token, for its merchant only, by the same rules (services/disputes.ts). Registered inside the widget
 * routes' scope, so their CORS applies; every POST honours an Idempotency-Key, as the console's actions do.
 */
export const consoleDisputeRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { clock }) => {
  const limits = new ConsoleLimits();
  /** The merchant of a session that grants disputes (its id and client's); 401 says how to authenticate, 403 what is missing. */
  async function ownerOf(request: FastifyRequest, reply: FastifyReply) {
    const session = await limits.session(request, reply, clock.now());
    requireFeature(session, 'disputes');
    const merchant = await request.unit.store.merchants.findByIdUnscoped(session.merchantId);
    if (!merchant) throw unauthenticated(BAD_SESSION);
    return { id: merchant.id, client_id: merchant.client_id };
  }
  app.decorateRequest('disputeOwner', null as unknown as { id: string; client_id: string });
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'OPTIONS') request.disputeOwner = await ownerOf(request, reply);
  });
  // An action's Idempotency-Key is its session's merchant's, as the console's other actions' are.
  honourIdempotencyKeys(app, clock, (request) => ({ id: `console:${request.disputeOwner.id}`, secret: '' }));

  for (const path of ['/widgets/disputes', '/widgets/disputes/*'])
    app.options(path, { schema: { hide: true } }, async (_request, reply) =>
      reply.code(204).header('access-control-allow-methods', 'GET, POST, OPTIONS').send(),
    );

  app.get(
    '/widgets/disputes',
    {
      schema: {
        operationId: 'listWidgetDisputes',
        tags,
        summary: "The merchant's disputes, newest first, by status or reason (session feature: disputes)",
        querystring: ConsoleDisputeListQuery,
        response: { 200: DisputeListAnswer, ...failures },
      },
    },
    async (request) => {
      const { status, reason, perPage, cursor } = request.query;
      return {
        result: true,
        message: 'Disputes retrieved.',
        data: await listDisputes(request.unit.store, request.disputeOwner.id, { status, reason }, perPage, cursor),
      };
    },
  );

  app.get(
    '/widgets/disputes/:dispute_id',
    {
      schema: {
        operationId: 'getWidgetDispute',
        tags,
        summary: 'One dispute: its evidence, its files and its history (session feature: disputes)',
        params: DisputeParams,
        response: { 200: DisputeAnswer, ...failures },
      },
    },
    async (request) => ({
      result: true,
      message: 'Dispute retrieved.',
      data: await disputeDetails(request.unit.store, request.disputeOwner, request.params.dispute_id),
    }),
  );

  app.get(
    '/widgets/disputes/:dispute_id/files/:file_id',
    {
      schema: {
        operationId: 'getWidgetDisputeFile',
        tags,
        summary: 'One evidence file, as uploaded (session feature: disputes)',
        params: DisputeFileParams,
        response: { 200: DisputeFileAnswer, ...failures },
      },
    },
    async (request) => {
      const owner = request.disputeOwner;
      const { dispute_id, file_id } = request.params;
      const data = await evidenceFile(request.unit.store, owner, dispute_id, file_id);
      return { result: true, message: 'File retrieved.', data };
    },
  );

  app.post(
    '/widgets/disputes/:dispute_id/evidence',
    {
      bodyLimit: EVIDENCE_BODY_LIMIT_BYTES,
      schema: {
        operationId: 'saveWidgetDisputeEvidence',
        tags,
        summary:
          'Save evidence (text fields, PDF/PNG/JPEG files in base64) until it is submitted or due (session feature: disputes)',
        params: DisputeParams,
        body: ConsoleEvidenceBody,
        response: { 200: DisputeAnswer, ...failures },
      },
    },
    async (request) => {
      const owner = request.disputeOwner;
      const saved = await saveEvidence(request.unit.store, owner, request.params.dispute_id, request.body, clock.now());
      const { dispute, added } = saved.result;
      const data = await disputeAfter(request.unit.store, owner.id, dispute, added);
      return request.unit.write(saved.change, { result: true, message: 'Evidence saved.', data });
    },
  );

  for (const [path, operationId, summary, step, message] of [
    [
      'submit',
      'submitWidgetDispute',
      'Submit the evidence saved: the dispute is under review',
      submitDispute,
      'Evidence submitted.',
    ],
    [
      'accept',
      'acceptWidgetDispute',
      'Accept the dispute: it is lost, its money stays withdrawn',
      acceptDispute,
      'Dispute accepted.',
    ],
  ] as const)
    app.post(
      `/widgets/disputes/:dispute_id/${path}`,
      {
        schema: {
          operationId,
          tags,
          summary: `${summary} (session feature: disputes)`,
          params: DisputeParams,
          response: { 200: DisputeAnswer, ...failures },
        },
      },
      async (request) => {
        const owner = request.disputeOwner;
        const decided = await step(request.unit.store, owner, request.params.dispute_id, clock.now());
        const data = await disputeAfter(request.unit.store, owner.id, decided.result);
        return request.unit.write(decided.change, { result: true, message, data });
      },
    );
};

declare module 'fastify' {
  interface FastifyRequest {
    /** The merchant a console dispute call acts for (console dispute routes only). */
    disputeOwner: { id: string; client_id: string };
  }
}
