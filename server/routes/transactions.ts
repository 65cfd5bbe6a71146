import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../plugins/deps.ts';
import { invalid, notFound } from '../domain/refusals.ts';
import { failures } from '../schemas/envelope.ts';
import {
  RefundBody,
  ReversalAnswer,
  TransactionGetAnswer,
  TransactionGetQuery,
  TransactionListAnswer,
  TransactionListQuery,
  TransactionParams,
  VoidBody,
} from '../schemas/payments.ts';
import { isListed } from '../store/transactions.ts';
import type { KeyedMerchant } from '../store/merchants.ts';
import { merchantByKey } from '../services/merchant-access.ts';
import { refundSale, voidSale, type RefundResult, type VoidResult } from '../services/refunds.ts';
import { listItem, singleItem } from '../services/transaction-views.ts';
import { readRange } from '../services/date-range.ts';
import { cursorFields, pageStart } from '../services/cursors.ts';
import { sendShopperReceipt } from './shopper-receipts.ts';

const tags = ['Transactions'];
function readLimit(limit?: number | string): number {
  if (limit === undefined || limit === '') return 20;
  const n = Number(limit);
  if (!Number.isInteger(n) || n < 1 || n > 100) throw invalid('limit must be a whole number from 1 to 100.');
  return n;
}

export const transactionRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { clock, config, afterAnswer }) => {
  /** The shopper's receipt of a refund or void, once the answer went (its change has committed by then). */
  const receiptAfterAnswer = (
    request: FastifyRequest,
    merchant: KeyedMerchant,
    { record, shopperReachable }: VoidResult,
  ) => {
    if (!merchant.receipts_enabled || !shopperReachable) return;
    const transactionId = record.transaction_id;
    const now = clock.now();
    afterAnswer.after(request, () =>
      sendShopperReceipt(request, merchant.id, transactionId, { now, publicUrl: config.publicUrl }),
    );
  };

  app.get(
    '/merchant/transactions',
    {
      schema: {
        operationId: 'listTransactions',
        tags,
        summary: "List a merchant's transactions, newest first (fields in the JSON body or the query string)",
        querystring: TransactionListQuery,
        response: { 200: TransactionListAnswer, ...failures },
      },
    },
    async (request) => {
      const { merchant_key, from_date, to_date, limit, pageNumber, cursor } = request.query;
      const merchant = await merchantByKey(request.unit.store, request.client.id, merchant_key);
      const perPage = readLimit(limit);
      const start = pageStart(cursor, pageNumber, perPage);
      const page = await request.unit.store.transactions.page(
        merchant.id,
        { view: 'listed', ...readRange(from_date, to_date) },
        perPage,
        start,
      );
      const now = clock.now();
      return {
        result: true,
        message: 'Transactions retrieved.',
        total: page.total,
        ...cursorFields(page),
        data: page.items.filter(isListed).map((t) => listItem(t, now)),
      };
    },
  );

  app.get(
    '/merchant/transactions/:transaction_id',
    {
      schema: {
        operationId: 'getTransaction',
        tags,
        summary: 'Read one transaction (an array of one item)',
        params: TransactionParams,
        querystring: TransactionGetQuery,
        response: { 200: TransactionGetAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = await merchantByKey(request.unit.store, request.client.id, request.query.merchant_key);
      const transaction = await request.unit.store.transactions.find(merchant.id, request.params.transaction_id);
      if (!transaction || !isListed(transaction))
        throw notFound(`No transaction ${request.params.transaction_id} for this merchant.`);
      return { result: true, message: 'Transaction retrieved.', data: [singleItem(transaction, clock.now())] };
    },
  );

  const refundAnswer = ({ record, performedAsVoid }: RefundResult) => ({
    result: true,
    message: performedAsVoid
      ? 'Refunded in full as a void: the transaction is older than 24 hours and not settled yet.'
      : 'Refund processed.',
    data: record,
  });

  app.post(
    '/order/sales-return',
    {
      schema: {
        operationId: 'refundTransaction',
        tags,
        summary: 'Refund a completed transaction, in part or in full',
        body: RefundBody,
        response: { 200: ReversalAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = await merchantByKey(request.unit.store, request.client.id, request.body.merchant_key);
      const refund = await refundSale(
        request.unit.store,
        merchant,
        request.body.transaction_id,
        request.body.amount,
        clock.now(),
        {},
        request.body,
      );
      const answer = await request.unit.write(refund.change, refundAnswer(refund.result));
      receiptAfterAnswer(request, merchant, refund.result);
      return answer;
    },
  );

  app.post(
    '/order/sales-void',
    {
      schema: {
        operationId: 'voidTransaction',
        tags,
        summary: 'Void a transaction that has not settled (form-urlencoded or JSON)',
        body: VoidBody,
        response: { 200: ReversalAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = await merchantByKey(request.unit.store, request.client.id, request.body.merchant_key);
      const voided = await voidSale(request.unit.store, merchant, request.body.transaction_id, clock.now());
      const answer = await request.unit.write(voided.change, {
        result: true,
        message: 'Transaction voided.',
        data: voided.result.record,
      });
      receiptAfterAnswer(request, merchant, voided.result);
      return answer;
    },
  );
};
