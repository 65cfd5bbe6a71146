import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../plugins/deps.ts';
import { unauthenticated } from '../domain/refusals.ts';
import { failures } from '../schemas/envelope.ts';
import {
  ConsoleAmountBody,
  ConsoleRefundBody,
  ConsoleReceiptBody,
  ConsoleHoldAmountBody,
  ConsoleDetailsAnswer,
  ConsoleExportQuery,
  ConsoleParams,
  ConsoleUndoAnswer,
  TransactionsCsv,
  WidgetTransactionsAnswer,
  WidgetTransactionsQuery,
} from '../schemas/widgets.ts';
import { BAD_SESSION, requireFeature, type WidgetSession } from '../services/widgets.ts';
import { ConsoleLimits } from '../plugins/console-limits.ts';
import { honourIdempotencyKeys } from '../plugins/idempotency.ts';
import { transactionsExport } from '../services/transactions-csv.ts';
import { sendCsv } from './transaction-export.ts';
import { receiptChange, typedRecipients } from '../services/receipts.ts';
import { apply, type Decided } from '../services/guarded.ts';
import type { Store } from '../store/store.ts';
import {
  consoleAdjust,
  consoleCapture,
  consoleDetails,
  consoleRefund,
  consoleRelease,
  consoleUndo,
  consoleVoid,
  listConsole,
  type ConsoleActor,
} from '../services/console.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The console's session, named by the call's Bearer token (console routes only). */
    consoleSession: WidgetSession;
  }
}

const tags = ['Widgets'];

/**
 * The payments console (`<transactions-table>`, issue 32): listing, details and actions with a widget session token.
 * Registered inside the widget routes' scope, so their CORS applies; the limits are per session token (ConsoleLimits).
 */
export const consoleRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { clock, config }) => {
  const limits = new ConsoleLimits();
  // Every call names its session first: an action's Idempotency-Key is its session's merchant's.
  app.decorateRequest('consoleSession', null as unknown as WidgetSession);
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'OPTIONS') request.consoleSession = await limits.session(request, reply, clock.now());
  });
  honourIdempotencyKeys(app, clock, (request) => ({ id: `console:${request.consoleSession.merchantId}`, secret: '' }));

  async function actor(request: FastifyRequest): Promise<ConsoleActor> {
    const s = request.consoleSession;
    const merchant = await request.unit.store.merchants.findByIdUnscoped(s.merchantId);
    if (!merchant) throw unauthenticated(BAD_SESSION);
    return { session: s, merchant, minimumPayment: config.minimumPayment };
  }

  app.options('/widgets/transactions/*', { schema: { hide: true } }, async (_request, reply) =>
    reply.code(204).header('access-control-allow-methods', 'GET, POST, OPTIONS').send(),
  );

  app.get(
    '/widgets/transactions',
    {
      schema: {
        operationId: 'listWidgetTransactions',
        tags,
        summary: "The merchant's transactions: filter, search, sort (Bearer session token)",
        querystring: WidgetTransactionsQuery,
        response: { 200: WidgetTransactionsAnswer, ...failures },
      },
    },
    async (request) => {
      const { merchantId, features } = request.consoleSession;
      // A search narrowed to what an index can answer says so (docs/decisions.md, "Payments console").
      const { narrowed, ...data } = await listConsole(request.unit.store, merchantId, request.query, clock.now());
      return {
        result: true,
        message: narrowed ? `Transactions retrieved. ${narrowed}` : 'Transactions retrieved.',
        data: { ...data, features },
      };
    },
  );

  app.get(
    '/widgets/transactions/export.csv',
    {
      schema: {
        operationId: 'exportWidgetTransactions',
        tags,
        summary: 'Every transaction the filter matches, as CSV, streamed (session feature: export)',
        querystring: ConsoleExportQuery,
        response: { 200: TransactionsCsv, ...failures },
      },
    },
    async (request, reply) => {
      const s = request.consoleSession;
      requireFeature(s, 'export');
      return sendCsv(reply, transactionsExport(request.unit.store, s.merchantId, request.query, clock.now()));
    },
  );

  app.get(
    '/widgets/transactions/:transaction_id',
    {
      schema: {
        operationId: 'getWidgetTransaction',
        tags,
        summary: 'One transaction with its timeline and refunds (Bearer session token)',
        params: ConsoleParams,
        response: { 200: ConsoleDetailsAnswer, ...failures },
      },
    },
    async (request) => {
      const { merchantId } = request.consoleSession;
      return {
        result: true,
        message: 'Transaction retrieved.',
        data: await consoleDetails(request.unit.store, merchantId, request.params.transaction_id, clock.now()),
      };
    },
  );

  // Each action decides on plain reads, then writes its change and reads its answer in one unit of its request: a keyed
  // action's answer (the row after it) commits with its change.
  /** Each action answers the row as it is now, with its timeline and refunds. */
  const after = (tx: Store, who: ConsoleActor, id: string) => consoleDetails(tx, who.merchant.id, id, clock.now());
  /** The shopper's receipt of a refund, void or capture just made, in the action's unit: its answer shows that it went. */
  const receipt = async (tx: Store, who: ConsoleActor, recordId: string) => {
    const change = await receiptChange(tx, who.merchant.id, recordId, {
      now: clock.now(),
      publicUrl: config.publicUrl,
    });
    if (change) await tx.write(change);
  };
  /** Writes an action's change (in the action's unit); answers what it decided. */
  const written = async <T>(tx: Store, { change, result }: Decided<T>): Promise<T> => {
    await apply(tx, change);
    return result;
  };

  app.post(
    '/widgets/transactions/:transaction_id/refund',
    {
      schema: {
        operationId: 'refundWidgetTransaction',
        tags,
        summary: 'Refund a sale in part or in full, with a reason if you like (session feature: refunds)',
        params: ConsoleParams,
        body: ConsoleRefundBody,
        response: { 200: ConsoleDetailsAnswer, ...failures },
      },
    },
    async (request) => {
      const who = await actor(request);
      const id = request.params.transaction_id;
      const decided = await consoleRefund(request.unit.store, who, id, request.body?.amount, clock.now(), request.body);
      return request.unit.transaction(async (tx) => {
        await receipt(tx, who, await written(tx, decided));
        return { result: true, message: 'Refund processed.', data: await after(tx, who, id) };
      });
    },
  );

  app.post(
    '/widgets/transactions/:transaction_id/void',
    {
      schema: {
        operationId: 'voidWidgetTransaction',
        tags,
        summary: 'Void a sale before it settles (session feature: voids)',
        params: ConsoleParams,
        response: { 200: ConsoleDetailsAnswer, ...failures },
      },
    },
    async (request) => {
      const who = await actor(request);
      const id = request.params.transaction_id;
      const decided = await consoleVoid(request.unit.store, who, id, clock.now());
      return request.unit.transaction(async (tx) => {
        await receipt(tx, who, await written(tx, decided));
        return { result: true, message: 'Transaction voided.', data: await after(tx, who, id) };
      });
    },
  );

  app.post(
    '/widgets/transactions/:transaction_id/capture',
    {
      schema: {
        operationId: 'captureWidgetTransaction',
        tags,
        summary: 'Capture a hold, of the amount held or of a new amount (session feature: captures)',
        params: ConsoleParams,
        body: ConsoleAmountBody,
        response: { 200: ConsoleDetailsAnswer, ...failures },
      },
    },
    async (request) => {
      const who = await actor(request);
      const id = request.params.transaction_id;
      const decided = await consoleCapture(request.unit.store, who, id, request.body?.amount, clock.now());
      return request.unit.transaction(async (tx) => {
        const captured = await written(tx, decided);
        await receipt(tx, who, captured.transaction_id);
        return { result: true, message: 'Hold captured.', data: await after(tx, who, id) };
      });
    },
  );

  app.post(
    '/widgets/transactions/:transaction_id/adjust',
    {
      schema: {
        operationId: 'adjustWidgetHold',
        tags,
        summary: "Change a hold's amount, higher or lower, without capturing (session feature: captures)",
        params: ConsoleParams,
        body: ConsoleHoldAmountBody,
        response: { 200: ConsoleDetailsAnswer, ...failures },
      },
    },
    async (request) => {
      const who = await actor(request);
      const id = request.params.transaction_id;
      const decided = await consoleAdjust(request.unit.store, who, id, request.body.amount, clock.now());
      return request.unit.transaction(async (tx) => {
        await written(tx, decided);
        return { result: true, message: 'Hold changed.', data: await after(tx, who, id) };
      });
    },
  );

  app.post(
    '/widgets/transactions/:transaction_id/release',
    {
      schema: {
        operationId: 'releaseWidgetTransaction',
        tags,
        summary: 'Release a hold (session feature: captures)',
        params: ConsoleParams,
        response: { 200: ConsoleDetailsAnswer, ...failures },
      },
    },
    async (request) => {
      const who = await actor(request);
      const id = request.params.transaction_id;
      const decided = await consoleRelease(request.unit.store, who, id, clock.now());
      return request.unit.transaction(async (tx) => {
        await written(tx, decided);
        return { result: true, message: 'Hold released.', data: await after(tx, who, id) };
      });
    },
  );

  app.post(
    '/widgets/transactions/:transaction_id/undo',
    {
      schema: {
        operationId: 'undoWidgetTransaction',
        tags,
        summary:
          'Undo a sale: a void before it settles (session feature: voids), else a full refund (session feature: refunds)',
        params: ConsoleParams,
        response: { 200: ConsoleUndoAnswer, ...failures },
      },
    },
    async (request) => {
      const who = await actor(request);
      const id = request.params.transaction_id;
      const decided = await consoleUndo(request.unit.store, who, id, clock.now());
      return request.unit.transaction(async (tx) => {
        const { undoneAs, recordId } = await written(tx, decided);
        await receipt(tx, who, recordId);
        return {
          result: true,
          message:
            undoneAs === 'void'
              ? 'Sale voided: nobody keeps a fee.'
              : 'Sale refunded in full: it had settled, so a void was no longer possible.',
          data: { ...(await after(tx, who, id)), undone_as: undoneAs },
        };
      });
    },
  );

  app.post(
    '/widgets/transactions/:transaction_id/receipt',
    {
      schema: {
        operationId: 'resendWidgetReceipt',
        tags,
        summary:
          "Send the shopper the transaction's receipt again, or to an address or phone typed (session feature: receipts)",
        params: ConsoleParams,
        body: ConsoleReceiptBody,
        response: { 200: ConsoleDetailsAnswer, ...failures },
      },
    },
    async (request) => {
      const who = await actor(request);
      requireFeature(who.session, 'receipts');
      const id = request.params.transaction_id;
      const to = typedRecipients(request.body?.email, request.body?.phone);
      const change = await receiptChange(request.unit.store, who.merchant.id, id, {
        now: clock.now(),
        publicUrl: config.publicUrl,
        strict: true,
        to,
      });
      return request.unit.transaction(async (tx) => {
        await tx.write(change!);
        return { result: true, message: 'Receipt sent.', data: await after(tx, who, id) };
      });
    },
  );
};
