import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../plugins/deps.ts';
import { ConsoleLimits } from '../plugins/console-limits.ts';
import { failures } from '../schemas/envelope.ts';
import {
  EntriesCsv,
  PayoutEntriesAnswer,
  PayoutParams,
  WidgetPageQuery,
  WidgetPayoutCsvQuery,
  WidgetPayoutsAnswer,
} from '../schemas/payouts.ts';
import { requireFeature } from '../services/widgets.ts';
import { balanceView, listPayoutEntries, listPayouts, ownPayout } from '../services/payout-views.ts';
import { entriesExport } from '../services/payouts-csv.ts';
import { sendCsv } from './transaction-export.ts';

const tags = ['Widgets'];

/**
 * The console's payouts view (`<transactions-table>` with the `payouts` feature): the balance and the payouts, each
 * payout's entries and their CSV, with a widget session token. Registered inside the widget routes' scope, so their
 * CORS and rate limits apply.
 */
export const consolePayoutRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { clock }) => {
  // Bounded per token and per address as the console's other calls are (a budget of their own: console.ts's).
  const limits = new ConsoleLimits();
  /** The merchant of a session that grants payouts; 401 says how to authenticate, 403 which feature is missing. */
  async function merchantOf(request: FastifyRequest, reply: FastifyReply): Promise<string> {
    const session = await limits.session(request, reply, clock.now());
    requireFeature(session, 'payouts');
    return session.merchantId;
  }

  app.options('/widgets/payouts', { schema: { hide: true } }, async (_request, reply) =>
    reply.code(204).header('access-control-allow-methods', 'GET, OPTIONS').send(),
  );
  app.options('/widgets/payouts/*', { schema: { hide: true } }, async (_request, reply) =>
    reply.code(204).header('access-control-allow-methods', 'GET, OPTIONS').send(),
  );

  app.get(
    '/widgets/payouts',
    {
      schema: {
        operationId: 'listWidgetPayouts',
        tags,
        summary: 'The balance and the payouts, newest first (session feature: payouts)',
        querystring: WidgetPageQuery,
        response: { 200: WidgetPayoutsAnswer, ...failures },
      },
    },
    async (request, reply) => {
      const merchantId = await merchantOf(request, reply);
      const [balance, payouts] = await Promise.all([
        balanceView(request.unit.store, merchantId, clock.now()),
        listPayouts(request.unit.store, merchantId, request.query.perPage, request.query.cursor),
      ]);
      return { result: true, message: 'Payouts retrieved.', data: { balance, ...payouts } };
    },
  );

  app.get(
    '/widgets/payouts/:payout_id/entries',
    {
      schema: {
        operationId: 'listWidgetPayoutEntries',
        tags,
        summary: "A payout's entries, newest first (session feature: payouts)",
        params: PayoutParams,
        querystring: WidgetPageQuery,
        response: { 200: PayoutEntriesAnswer, ...failures },
      },
    },
    async (request, reply) => {
      const merchantId = await merchantOf(request, reply);
      return {
        result: true,
        message: 'Payout entries retrieved.',
        data: await listPayoutEntries(
          request.unit.store,
          merchantId,
          request.params.payout_id,
          request.query.perPage,
          request.query.cursor,
        ),
      };
    },
  );

  app.get(
    '/widgets/payouts/:payout_id/entries.csv',
    {
      schema: {
        operationId: 'exportWidgetPayoutEntries',
        tags,
        summary: "A payout's entries as CSV (session feature: payouts)",
        params: PayoutParams,
        querystring: WidgetPayoutCsvQuery,
        response: { 200: EntriesCsv, ...failures },
      },
    },
    async (request, reply) => {
      const merchantId = await merchantOf(request, reply);
      const payout = await ownPayout(request.unit.store, merchantId, request.params.payout_id);
      return sendCsv(
        reply,
        entriesExport(
          request.unit.store,
          merchantId,
          { payoutId: payout.id },
          `payout-${payout.id}`,
          request.query.lang,
        ),
      );
    },
  );
};
