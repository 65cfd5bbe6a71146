import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../plugins/deps.ts';
import { failures } from '../schemas/envelope.ts';
import {
  DisputeActionBody,
  DisputeAnswer,
  DisputeFileParams,
  DisputeListAnswer,
  DisputeListQuery,
  DisputeParams,
  DisputeQuery,
  EVIDENCE_BODY_LIMIT_BYTES,
  EvidenceBody,
  DisputeFileAnswer,
} from '../schemas/disputes.ts';
import { merchantByKey } from '../services/merchant-access.ts';
import {
  acceptDispute,
  disputeDetails,
  disputeAfter,
  evidenceFile,
  listDisputes,
  saveEvidence,
  submitDispute,
} from '../services/disputes.ts';

const tags = ['Disputes'];

/** A merchant's disputes (docs/disputes.md): read them, answer with evidence, submit it or accept. */
export const disputeRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { clock }) => {
  app.get(
    '/disputes',
    {
      schema: {
        operationId: 'listDisputes',
        tags,
        summary: "A merchant's disputes, newest first, by status or reason",
        querystring: DisputeListQuery,
        response: { 200: DisputeListAnswer, ...failures },
      },
    },
    async (request) => {
      const { merchant_key, status, reason, perPage, cursor } = request.query;
      const merchant = await merchantByKey(request.unit.store, request.client.id, merchant_key);
      return {
        result: true,
        message: 'Disputes retrieved.',
        data: await listDisputes(request.unit.store, merchant.id, { status, reason }, perPage, cursor),
      };
    },
  );

  app.get(
    '/disputes/:dispute_id',
    {
      schema: {
        operationId: 'getDispute',
        tags,
        summary: 'One dispute: its evidence, its files and its history',
        params: DisputeParams,
        querystring: DisputeQuery,
        response: { 200: DisputeAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = await merchantByKey(request.unit.store, request.client.id, request.query.merchant_key);
      return {
        result: true,
        message: 'Dispute retrieved.',
        data: await disputeDetails(request.unit.store, merchant, request.params.dispute_id),
      };
    },
  );

  app.get(
    '/disputes/:dispute_id/files/:file_id',
    {
      schema: {
        operationId: 'getDisputeFile',
        tags,
        summary: 'One evidence file, as uploaded (its merchant only)',
        params: DisputeFileParams,
        querystring: DisputeQuery,
        response: { 200: DisputeFileAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = await merchantByKey(request.unit.store, request.client.id, request.query.merchant_key);
      const { dispute_id, file_id } = request.params;
      const data = await evidenceFile(request.unit.store, merchant, dispute_id, file_id);
      return { result: true, message: 'File retrieved.', data };
    },
  );

  app.post(
    '/disputes/:dispute_id/evidence',
    {
      bodyLimit: EVIDENCE_BODY_LIMIT_BYTES,
      schema: {
        operationId: 'saveDisputeEvidence',
        tags,
        summary: 'Save evidence (text fields, PDF/PNG/JPEG files): again and again, until it is submitted or due',
        params: DisputeParams,
        body: EvidenceBody,
        response: { 200: DisputeAnswer, ...failures },
      },
    },
    async (request) => {
      const { merchant_key, ...upload } = request.body;
      const merchant = await merchantByKey(request.unit.store, request.client.id, merchant_key);
      const saved = await saveEvidence(request.unit.store, merchant, request.params.dispute_id, upload, clock.now());
      const { dispute, added } = saved.result;
      const data = await disputeAfter(request.unit.store, merchant.id, dispute, added);
      return request.unit.write(saved.change, { result: true, message: 'Evidence saved.', data });
    },
  );

  for (const [path, operationId, summary, step, message] of [
    [
      'submit',
      'submitDispute',
      'Submit the evidence saved: the dispute is under review',
      submitDispute,
      'Evidence submitted.',
    ],
    [
      'accept',
      'acceptDispute',
      'Accept the dispute: it is lost, its money stays withdrawn',
      acceptDispute,
      'Dispute accepted.',
    ],
  ] as const)
    app.post(
      `/disputes/:dispute_id/${path}`,
      {
        schema: {
          operationId,
          tags,
          summary,
          params: DisputeParams,
          body: DisputeActionBody,
          response: { 200: DisputeAnswer, ...failures },
        },
      },
      async (request) => {
        const merchant = await merchantByKey(request.unit.store, request.client.id, request.body.merchant_key);
        const decided = await step(request.unit.store, merchant, request.params.dispute_id, clock.now());
        const data = await disputeAfter(request.unit.store, merchant.id, decided.result);
        return request.unit.write(decided.change, { result: true, message, data });
      },
    );
};
