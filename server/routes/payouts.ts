import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../plugins/deps.ts';
import { invalid } from '../domain/refusals.ts';
import { failures } from '../schemas/envelope.ts';
import {
  BalanceAnswer,
  CreatePayoutBody,
  EntriesCsv,
  EntriesCsvQuery,
  MerchantQuery,
  PayoutAnswer,
  PayoutCsvQuery,
  PayoutEntriesAnswer,
  PayoutEntriesQuery,
  PayoutListAnswer,
  PayoutListQuery,
  PayoutParams,
  PayoutSettingsAnswer,
  PayoutSettingsBody,
} from '../schemas/payouts.ts';
import { merchantByKey } from '../services/merchant-access.ts';
import {
  balanceView,
  listPayoutEntries,
  listPayouts,
  ownPayout,
  payoutSettingsView,
  payoutView,
  settingsView,
} from '../services/payout-views.ts';
import { changePayoutSettings, payOutNow } from '../services/payouts.ts';
import { entriesExport } from '../services/payouts-csv.ts';
import { sendCsv } from './transaction-export.ts';
import { readRange } from '../services/date-range.ts';

const tags = ['Payouts'];

/** Where a merchant's money goes after the sale (docs/payouts.md): its balance, its payouts and their entries. */
export const payoutRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { clock }) => {
  app.get(
    '/balance',
    {
      schema: {
        operationId: 'getBalance',
        tags,
        summary: "A merchant's balance: available to pay out, and pending",
        querystring: MerchantQuery,
        response: { 200: BalanceAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = await merchantByKey(request.unit.store, request.client.id, request.query.merchant_key);
      return {
        result: true,
        message: 'Balance retrieved.',
        data: await balanceView(request.unit.store, merchant.id, clock.now()),
      };
    },
  );

  app.get(
    '/balance/entries.csv',
    {
      schema: {
        operationId: 'exportLedgerEntries',
        tags,
        summary: "A merchant's ledger entries created in a range of days, as CSV",
        querystring: EntriesCsvQuery,
        response: { 200: EntriesCsv, ...failures },
      },
    },
    async (request, reply) => {
      const { merchant_key, from_date, to_date, lang } = request.query;
      const merchant = await merchantByKey(request.unit.store, request.client.id, merchant_key);
      const { from, to } = readRange(from_date, to_date);
      if (!from || !to)
        throw invalid('from_date and to_date are both needed, e.g. from_date=2026-03-01&to_date=2026-03-31.');
      return sendCsv(
        reply,
        entriesExport(request.unit.store, merchant.id, { from, to }, `entries-${from_date}-${to_date}`, lang),
      );
    },
  );

  app.get(
    '/payouts',
    {
      schema: {
        operationId: 'listPayouts',
        tags,
        summary: "A merchant's payouts, newest first",
        querystring: PayoutListQuery,
        response: { 200: PayoutListAnswer, ...failures },
      },
    },
    async (request) => {
      const { merchant_key, perPage, cursor } = request.query;
      const merchant = await merchantByKey(request.unit.store, request.client.id, merchant_key);
      return {
        result: true,
        message: 'Payouts retrieved.',
        data: await listPayouts(request.unit.store, merchant.id, perPage, cursor),
      };
    },
  );

  app.post(
    '/payouts',
    {
      schema: {
        operationId: 'createPayout',
        tags,
        summary: 'Pay out the available balance now (a merchant on a manual schedule)',
        body: CreatePayoutBody,
        response: { 200: PayoutAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = await merchantByKey(request.unit.store, request.client.id, request.body.merchant_key);
      return request.unit.transaction(async (tx) => ({
        result: true,
        message: 'Payout created.',
        data: payoutView(await payOutNow(tx, merchant, clock.now())),
      }));
    },
  );

  app.get(
    '/payouts/settings',
    {
      schema: {
        operationId: 'getPayoutSettings',
        tags,
        summary: "A merchant's payout schedule and bank account",
        querystring: MerchantQuery,
        response: { 200: PayoutSettingsAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = await merchantByKey(request.unit.store, request.client.id, request.query.merchant_key);
      return {
        result: true,
        message: 'Payout settings retrieved.',
        data: await payoutSettingsView(request.unit.store, merchant.id),
      };
    },
  );

  app.put(
    '/payouts/settings',
    {
      schema: {
        operationId: 'updatePayoutSettings',
        tags,
        summary: 'Change the payout schedule, or the bank account payouts go to (which resumes paused payouts)',
        body: PayoutSettingsBody,
        response: { 200: PayoutSettingsAnswer, ...failures },
      },
    },
    async (request) => {
      const { merchant_key, ...change } = request.body;
      const merchant = await merchantByKey(request.unit.store, request.client.id, merchant_key);
      return request.unit.transaction(async (tx) => ({
        result: true,
        message: 'Payout settings saved.',
        data: settingsView(await changePayoutSettings(tx, merchant, change, clock.now())),
      }));
    },
  );

  app.get(
    '/payouts/:payout_id',
    {
      schema: {
        operationId: 'getPayout',
        tags,
        summary: 'One payout',
        params: PayoutParams,
        querystring: MerchantQuery,
        response: { 200: PayoutAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = await merchantByKey(request.unit.store, request.client.id, request.query.merchant_key);
      return {
        result: true,
        message: 'Payout retrieved.',
        data: payoutView(await ownPayout(request.unit.store, merchant.id, request.params.payout_id)),
      };
    },
  );

  app.get(
    '/payouts/:payout_id/entries',
    {
      schema: {
        operationId: 'listPayoutEntries',
        tags,
        summary: 'The ledger entries a payout swept, newest first: they add up to its amount',
        params: PayoutParams,
        querystring: PayoutEntriesQuery,
        response: { 200: PayoutEntriesAnswer, ...failures },
      },
    },
    async (request) => {
      const { merchant_key, perPage, cursor } = request.query;
      const merchant = await merchantByKey(request.unit.store, request.client.id, merchant_key);
      return {
        result: true,
        message: 'Payout entries retrieved.',
        data: await listPayoutEntries(request.unit.store, merchant.id, request.params.payout_id, perPage, cursor),
      };
    },
  );

  app.get(
    '/payouts/:payout_id/entries.csv',
    {
      schema: {
        operationId: 'exportPayoutEntries',
        tags,
        summary: "A payout's entries as CSV: one line each, type, gross, fee, net, transaction, order, dates",
        params: PayoutParams,
        querystring: PayoutCsvQuery,
        response: { 200: EntriesCsv, ...failures },
      },
    },
    async (request, reply) => {
      const merchant = await merchantByKey(request.unit.store, request.client.id, request.query.merchant_key);
      const payout = await ownPayout(request.unit.store, merchant.id, request.params.payout_id);
      return sendCsv(
        reply,
        entriesExport(
          request.unit.store,
          merchant.id,
          { payoutId: payout.id },
          `payout-${payout.id}`,
          request.query.lang,
        ),
      );
    },
  );
};
