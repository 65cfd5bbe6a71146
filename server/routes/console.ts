import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../plugins/deps.ts';
import { unauthenticated } from '../domain/refusals.ts';
import { failures } from '../schemas/envelope.ts';
import {
  ConsoleAmountBody, ConsoleHoldAmountBody, ConsoleDetailsAnswer, ConsoleExportQuery, ConsoleParams, ConsoleUndoAnswer, TransactionsCsv, WidgetTransactionsAnswer, WidgetTransactionsQuery,
} from '../schemas/widgets.ts';
import { BAD_SESSION, requireFeature, sessionOf, type WidgetSession } from '../services/widgets.ts';
import { sendTransactionsCsv } from '../services/transactions-csv.ts';
import { receiptAfter, sendReceipt } from '../services/receipts.ts';
import {
  consoleAdjust, consoleCapture, consoleDetails, consoleRefund, consoleRelease, consoleUndo, consoleVoid, listConsole, type ConsoleActor,
} from '../services/console.ts';

const tags = ['Widgets'];

/**
 * The payments console (`<transactions-table>`, issue 32): listing, details and actions with a widget session token.
 * Registered inside the widget routes' scope, so their CORS and rate limits apply.
 */
export const consoleRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { store, clock, config }) => {
  /** The session of the call's Bearer token; a 401 says how to authenticate. */
  async function session(request: FastifyRequest, reply: FastifyReply): Promise<WidgetSession> {
    try {
      return await sessionOf(store, request.headers.authorization, clock.now());
    } catch (error) {
      reply.header('www-authenticate', 'Bearer');
      throw error;
    }
  }
  async function actor(request: FastifyRequest, reply: FastifyReply): Promise<ConsoleActor> {
    const s = await session(request, reply);
    const merchant = await store.merchants.findByIdUnscoped(s.merchantId);
    if (!merchant) throw unauthenticated(BAD_SESSION);
    return { session: s, merchant };
  }

  app.options('/widgets/transactions/*', { schema: { hide: true } }, async (_request, reply) =>
    reply.code(204).header('access-control-allow-methods', 'GET, POST, OPTIONS').send());

  app.get('/widgets/transactions', {
    schema: {
      operationId: 'listWidgetTransactions', tags, summary: "The merchant's transactions: filter, search, sort (Bearer session token)",
      querystring: WidgetTransactionsQuery, response: { 200: WidgetTransactionsAnswer, ...failures },
    },
  }, async (request, reply) => {
    const { merchantId } = await session(request, reply);
    // A search narrowed to what an index can answer says so (docs/decisions.md, "Payments console").
    const { narrowed, ...data } = await listConsole(store, merchantId, request.query, clock.now());
    return { result: true, message: narrowed ? `Transactions retrieved. ${narrowed}` : 'Transactions retrieved.', data };
  });

  app.get('/widgets/transactions/export.csv', {
    schema: {
      operationId: 'exportWidgetTransactions', tags, summary: 'Every transaction the filter matches, as CSV, streamed (session feature: export)',
      querystring: ConsoleExportQuery, response: { 200: TransactionsCsv, ...failures },
    },
  }, async (request, reply) => {
    const s = await session(request, reply);
    requireFeature(s, 'export');
    return sendTransactionsCsv(reply, store, s.merchantId, request.query, clock.now());
  });

  app.get('/widgets/transactions/:transaction_id', {
    schema: {
      operationId: 'getWidgetTransaction', tags, summary: 'One transaction with its timeline and refunds (Bearer session token)',
      params: ConsoleParams, response: { 200: ConsoleDetailsAnswer, ...failures },
    },
  }, async (request, reply) => {
    const { merchantId } = await session(request, reply);
    return { result: true, message: 'Transaction retrieved.', data: await consoleDetails(store, merchantId, request.params.transaction_id, clock.now()) };
  });

  /** Each action answers the row as it is now, with its timeline and refunds. */
  const after = async (who: ConsoleActor, id: string) => consoleDetails(store, who.merchant.id, id, clock.now());
  /** The shopper's receipt of a refund or void just made. */
  const receipt = (request: FastifyRequest, who: ConsoleActor, recordId: string) =>
    receiptAfter(store, request.log, who.merchant.id, recordId, { now: clock.now(), publicUrl: config.publicUrl });

  app.post('/widgets/transactions/:transaction_id/refund', {
    schema: {
      operationId: 'refundWidgetTransaction', tags, summary: 'Refund a sale in part or in full (session feature: refunds)',
      params: ConsoleParams, body: ConsoleAmountBody, response: { 200: ConsoleDetailsAnswer, ...failures },
    },
  }, async (request, reply) => {
    const who = await actor(request, reply);
    await receipt(request, who, await consoleRefund(store, who, request.params.transaction_id, request.body?.amount, clock.now()));
    return { result: true, message: 'Refund processed.', data: await after(who, request.params.transaction_id) };
  });

  app.post('/widgets/transactions/:transaction_id/void', {
    schema: {
      operationId: 'voidWidgetTransaction', tags, summary: 'Void a sale before it settles (session feature: voids)',
      params: ConsoleParams, response: { 200: ConsoleDetailsAnswer, ...failures },
    },
  }, async (request, reply) => {
    const who = await actor(request, reply);
    await receipt(request, who, await consoleVoid(store, who, request.params.transaction_id, clock.now()));
    return { result: true, message: 'Transaction voided.', data: await after(who, request.params.transaction_id) };
  });

  app.post('/widgets/transactions/:transaction_id/capture', {
    schema: {
      operationId: 'captureWidgetTransaction', tags, summary: 'Capture a hold, of the amount held or of a new amount (session feature: captures)',
      params: ConsoleParams, body: ConsoleAmountBody, response: { 200: ConsoleDetailsAnswer, ...failures },
    },
  }, async (request, reply) => {
    const who = await actor(request, reply);
    await consoleCapture(store, who, request.params.transaction_id, request.body?.amount, clock.now());
    return { result: true, message: 'Hold captured.', data: await after(who, request.params.transaction_id) };
  });

  app.post('/widgets/transactions/:transaction_id/adjust', {
    schema: {
      operationId: 'adjustWidgetHold', tags, summary: "Change a hold's amount, higher or lower, without capturing (session feature: captures)",
      params: ConsoleParams, body: ConsoleHoldAmountBody, response: { 200: ConsoleDetailsAnswer, ...failures },
    },
  }, async (request, reply) => {
    const who = await actor(request, reply);
    await consoleAdjust(store, who, request.params.transaction_id, request.body.amount, clock.now());
    return { result: true, message: 'Hold changed.', data: await after(who, request.params.transaction_id) };
  });

  app.post('/widgets/transactions/:transaction_id/release', {
    schema: {
      operationId: 'releaseWidgetTransaction', tags, summary: 'Release a hold (session feature: captures)',
      params: ConsoleParams, response: { 200: ConsoleDetailsAnswer, ...failures },
    },
  }, async (request, reply) => {
    const who = await actor(request, reply);
    await consoleRelease(store, who, request.params.transaction_id);
    return { result: true, message: 'Hold released.', data: await after(who, request.params.transaction_id) };
  });

  app.post('/widgets/transactions/:transaction_id/undo', {
    schema: {
      operationId: 'undoWidgetTransaction', tags,
      summary: 'Undo a sale: a void before it settles (session feature: voids), else a full refund (session feature: refunds)',
      params: ConsoleParams, response: { 200: ConsoleUndoAnswer, ...failures },
    },
  }, async (request, reply) => {
    const who = await actor(request, reply);
    const { undoneAs, recordId } = await consoleUndo(store, who, request.params.transaction_id, clock.now());
    await receipt(request, who, recordId);
    return {
      result: true,
      message: undoneAs === 'void' ? 'Sale voided: nobody keeps a fee.' : 'Sale refunded in full: it had settled, so a void was no longer possible.',
      data: { ...(await after(who, request.params.transaction_id)), undone_as: undoneAs },
    };
  });

  app.post('/widgets/transactions/:transaction_id/receipt', {
    schema: {
      operationId: 'resendWidgetReceipt', tags, summary: "Send the shopper the transaction's receipt again (session feature: receipts)",
      params: ConsoleParams, response: { 200: ConsoleDetailsAnswer, ...failures },
    },
  }, async (request, reply) => {
    const who = await actor(request, reply);
    requireFeature(who.session, 'receipts');
    await sendReceipt(store, who.merchant.id, request.params.transaction_id, { now: clock.now(), publicUrl: config.publicUrl, strict: true });
    return { result: true, message: 'Receipt sent.', data: await after(who, request.params.transaction_id) };
  });
};
