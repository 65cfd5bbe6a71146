import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../plugins/deps.ts';
import { conflict, forbidden, invalid, notFound, Refusal } from '../domain/refusals.ts';
import { newId } from '../platform/secrets.ts';
import { StatusAnswer, failures } from '../schemas/envelope.ts';
import { ApproveMerchantBody } from '../schemas/merchants.ts';
import { reviewApplication } from '../services/merchant-review.ts';
import {
  ClockAnswer,
  ClockBody,
  ListenAnswer,
  ListenQuery,
  MessagesAnswer,
  SandboxPayAnswer,
  SandboxPayBody,
  SettleAnswer,
  SettleBody,
  TriggerWebhookAnswer,
  TriggerWebhookBody,
  UpdateAchBody,
} from '../schemas/sandbox.ts';
import { sampleEventData } from '../services/sample-events.ts';
import { merchantByKey } from '../services/merchant-access.ts';
import { payLink, type PaymentDetails } from '../services/pay.ts';
import { LINK_PROBLEMS } from '../domain/pay-links.ts';
import { decideAch } from '../services/ach.ts';
import { sendShopperReceipt, writeWithReceipt } from './shopper-receipts.ts';
import { eventRow } from '../store/events.ts';
import { payLinkKey } from '../services/pay-link-tokens.ts';
import { CLOCK_OFFSET_SETTING } from '../store/settings.ts';
import { isoInstant } from '../domain/instants.ts';
import { runPayouts } from '../services/payouts.ts';
import { PayoutRunAnswer, PayoutRunBody } from '../schemas/payouts.ts';
import type { EventType } from '../domain/event-types.ts';
import { SandboxDisputeBody, DisputeAnswer } from '../schemas/disputes.ts';
import { decideOpenDisputes, disputeView, openDispute } from '../services/disputes.ts';

const PAY_TOKEN = /\/pay\/(pl_[A-Za-z0-9_-]+)/;

const tags = ['Sandbox'];
const AchAnswer = Type.Object({ result: Type.Boolean(), message: Type.String() });

/** Calls that exist in the sandbox only; production answers them with `result: false`. */
export const sandboxRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { clock, config }) => {
  app.addHook('onRequest', async () => {
    if (config.environment !== 'sandbox') throw forbidden('This call exists in the sandbox only.');
  });

  app.post(
    '/approve-merchant',
    {
      config: { envelope: 'status' },
      schema: {
        operationId: 'approveMerchant',
        tags,
        summary: 'Approve a pending merchant (sandbox)',
        body: ApproveMerchantBody,
        response: { 200: StatusAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = await request.unit.store.merchants.findById(request.client.id, request.body.merchant_id);
      if (!merchant)
        throw notFound(
          `No merchant ${request.body.merchant_id} among yours: send the merchant_id (m_…), not the merchant key.`,
        );
      return request.unit.transaction(async (tx) => {
        await reviewApplication(tx, merchant, 'approved', '', 'sandbox', clock.now());
        return { status: true, message: 'Merchant approved; merchant.approval dispatch started.' };
      });
    },
  );

  app.post(
    '/sandbox/webhooks/trigger',
    {
      schema: {
        operationId: 'triggerWebhook',
        tags,
        summary: 'Send one test event of a given type to your webhook endpoint (sandbox)',
        body: TriggerWebhookBody,
        response: { 200: TriggerWebhookAnswer, ...failures },
      },
    },
    async (request) => {
      const { event_type, merchant_id } = request.body;
      if (!(await request.unit.store.webhookEndpoints.enabled([request.client.id])).length) {
        throw conflict('No webhook endpoint to send to: register one with POST /client/update-webhooks-url first.');
      }
      if (merchant_id !== undefined && !(await request.unit.store.merchants.findById(request.client.id, merchant_id))) {
        throw notFound(`No merchant ${merchant_id} among yours: leave merchant_id out to use a made-up one.`);
      }
      const now = clock.now();
      const data = sampleEventData(event_type, merchant_id ?? newId('m_'), now);
      // Sent as every event is: from the outbox, signed, retried until delivered, listed with its attempts.
      const event = eventRow(request.client.id, event_type, data, now);
      return request.unit.write(
        { guards: [], rows: [], events: [event] },
        {
          result: true,
          message: `Test ${event_type} event queued for your webhook endpoint.`,
          data: { event_id: event.id, event_type, data },
        },
      );
    },
  );

  // A listener's read waits in steps: an event another process wrote (PostgreSQL) is seen at the next step.
  const LISTEN_STEP_MS = 200;
  const LISTEN_PAGE = 100;
  /** Reads waiting for events: a closing service answers them at once rather than wait for them. */
  const waiting = new Set<() => void>();
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    for (const wake of waiting) wake();
    done();
  });

  app.get(
    '/sandbox/events',
    {
      schema: {
        operationId: 'listenEvents',
        tags,
        summary:
          'Your events in the order they were written, from a cursor, waiting for the next: what paykit listen forwards (sandbox)',
        querystring: ListenQuery,
        response: { 200: ListenAnswer, ...failures },
      },
    },
    async (request, reply) => {
      const { wait, after: from } = request.query;
      const cursor = from === undefined ? undefined : /^(\d{1,18})\.(\d{1,15})$/.exec(from);
      if (cursor === null)
        throw invalid(
          'after must be the cursor an earlier answer of this call gave (such as "0.42"), as it was given.',
        );
      // Without a cursor, the cursor of now at once: a listener hears what is written from then on.
      let after = cursor && { txid: cursor[1]!, seq: Number(cursor[2]) };
      const starting = after === undefined;
      const until = Date.now() + wait * 1000;
      let gone = false;
      reply.raw.once('close', () => (gone = true));
      for (;;) {
        const { events, next } = await request.unit.store.events.listenFrom(request.client.id, after, LISTEN_PAGE);
        after = next;
        const left = until - Date.now();
        if (events.length > 0 || starting || left <= 0 || gone || closing) {
          // The connection was busy when the service began to close, so nothing closes it once idle: this answer does.
          if (closing) reply.header('connection', 'close');
          const listed = events.map((e) => ({
            event_id: e.id,
            event_type: e.event_type as EventType,
            created_at: e.created_at,
            data: e.data,
          }));
          return {
            result: true,
            message: `${listed.length} event${listed.length === 1 ? '' : 's'}.`,
            data: { events: listed, cursor: `${next.txid}.${next.seq}` },
          };
        }
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            waiting.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, Math.min(LISTEN_STEP_MS, left));
          waiting.add(wake);
        });
      }
    },
  );

  app.post(
    '/sandbox/pay',
    {
      schema: {
        operationId: 'sandboxPay',
        tags,
        summary: 'Pay a pay link or QR link as a customer would on the hosted page',
        body: SandboxPayBody,
        response: { 200: SandboxPayAnswer, ...failures },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const token = PAY_TOKEN.exec(body.pay_link)?.[1];
      const key = token === undefined ? undefined : payLinkKey(token);
      const request_ = key === undefined ? undefined : await request.unit.store.paymentRequests.findByTokenHash(key);
      // A client pays only its own links through the API; anyone else's is as unknown as a made-up one.
      if (token === undefined || !request_ || request_.client_id !== request.client.id)
        throw notFound(LINK_PROBLEMS.unknown);
      let details: PaymentDetails;
      if (body.method === 'card') {
        if (!body.card_number || body.exp_month === undefined || body.exp_year === undefined || !body.cvc) {
          throw invalid('A card payment needs card_number, exp_month, exp_year and cvc.');
        }
        details = {
          method: 'card',
          card: { number: body.card_number, expMonth: body.exp_month, expYear: body.exp_year, cvc: body.cvc },
          threeDs: body.three_ds,
        };
      } else {
        if (!body.routing_number || !body.account_number)
          throw invalid('An ACH payment needs routing_number and account_number.');
        details = {
          method: 'ach',
          routingNumber: body.routing_number,
          accountNumber: body.account_number,
          name: body.name,
        };
      }
      const { outcome, change } = await payLink(request.unit.store, token, details, clock.now(), false);
      switch (outcome.status) {
        case 'approved': {
          const answer = await request.unit.write(change!, {
            result: true,
            message: outcome.kind === 'preauth' ? 'Card authorized.' : 'Payment approved.',
            data: {
              transaction_id: outcome.transactionId,
              status: outcome.kind === 'preauth' ? ('authorized' as const) : ('approved' as const),
            },
          });
          if (outcome.kind === 'sale')
            await sendShopperReceipt(request, outcome.request.merchant_id, outcome.transactionId, {
              now: clock.now(),
              publicUrl: config.publicUrl,
            });
          return answer;
        }
        case 'pending':
          return request.unit.write(change!, {
            result: true,
            message: 'ACH payment submitted; it waits for POST /update-ach.',
            data: { transaction_id: outcome.transactionId, status: 'pending' as const },
          });
        case 'declined':
          // Answered, not thrown: a decline is the payment's outcome, not a refusal of the call.
          reply.code(402);
          return { result: false as const, message: outcome.message, code: 'card_declined' as const };
        case 'refused':
          throw new Refusal(outcome.reason, outcome.message);
        case 'challenge':
          throw invalid('This payment needs a 3-D Secure challenge: send three_ds "pass" or "fail".');
      }
    },
  );

  app.post(
    '/sandbox/clock/advance',
    {
      schema: {
        operationId: 'advanceSandboxClock',
        tags,
        summary: "Move the service's clock forward",
        body: ClockBody,
        response: { 200: ClockAnswer, ...failures },
      },
    },
    async (request) => {
      const step = Math.round(request.body.hours * 3_600_000);
      if (!clock.canAdvance(step))
        throw invalid('The sandbox clock may move at most 100 years ahead in all; it is already near that.');
      clock.advance(step);
      return request.unit.transaction(async (tx) => {
        await tx.settings.set(CLOCK_OFFSET_SETTING, String(clock.offset));
        // Disputes follow it too (docs/disputes.md), before the payouts, which then take their money's entries.
        await decideOpenDisputes(tx, clock.now());
        // Payouts follow the clock: those due by the new time are made and moved on, as the service's timer would.
        await runPayouts(tx, clock.now());
        return {
          result: true,
          message: `The clock moved forward ${request.body.hours} hours.`,
          data: { now: isoInstant(clock.now()) },
        };
      });
    },
  );

  app.post(
    '/sandbox/disputes',
    {
      schema: {
        operationId: 'createSandboxDispute',
        tags,
        summary: "Open a dispute of a completed card sale, as the card holder's bank would (sandbox)",
        body: SandboxDisputeBody,
        response: { 200: DisputeAnswer, ...failures },
      },
    },
    async (request) => {
      const { merchant_key, transaction_id, reason = 'general', amount, inquiry } = request.body;
      const merchant = await merchantByKey(request.unit.store, request.client.id, merchant_key);
      const opened = await openDispute(
        request.unit.store,
        merchant,
        transaction_id,
        { reason, amount, inquiry },
        clock.now(),
      );
      return request.unit.write(opened.change, {
        result: true,
        message: 'Dispute opened.',
        data: disputeView(opened.result, []),
      });
    },
  );

  app.post(
    '/sandbox/payouts/run',
    {
      schema: {
        operationId: 'runSandboxPayouts',
        tags,
        summary:
          'Run the payout schedule now for your merchants (or one): payouts due are made, those under way move on',
        body: PayoutRunBody,
        response: { 200: PayoutRunAnswer, ...failures },
      },
    },
    async (request) => {
      const { merchant_key } = request.body;
      const merchant =
        merchant_key === undefined
          ? undefined
          : await merchantByKey(request.unit.store, request.client.id, merchant_key);
      return request.unit.transaction(async (tx) => {
        const run = await runPayouts(tx, clock.now(), { clientId: request.client.id, merchantId: merchant?.id });
        return {
          result: true,
          message: `Payout run: ${run.created} made, ${run.in_transit} sent, ${run.paid} paid, ${run.failed} failed.`,
          data: run,
        };
      });
    },
  );

  app.post(
    '/sandbox/settle',
    {
      schema: {
        operationId: 'settleSandbox',
        tags,
        summary: "Close the merchant's batch: every completed, unsettled transaction settles",
        body: SettleBody,
        response: { 200: SettleAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = await merchantByKey(request.unit.store, request.client.id, request.body.merchant_key);
      return request.unit.transaction(async (tx) => {
        const settled = await tx.transactions.settleAll(merchant.id, isoInstant(clock.now()));
        return {
          result: true,
          message: `Batch closed: ${settled} transaction${settled === 1 ? '' : 's'} settled.`,
          data: { settled },
        };
      });
    },
  );

  app.get(
    '/sandbox/messages',
    {
      schema: {
        operationId: 'listSandboxMessages',
        tags,
        summary: 'The SMS and e-mails the service sent, newest first',
        response: { 200: MessagesAnswer, ...failures },
      },
    },
    async (request) => {
      const messages = await request.unit.store.messages.newestFirst(request.client.id, 100);
      return {
        result: true,
        message: 'Messages retrieved.',
        data: messages.map((m) => ({
          channel: m.channel,
          recipient: m.recipient,
          text: m.body,
          pay_link: m.pay_link,
          created_at: m.created_at,
        })),
      };
    },
  );

  app.post(
    '/update-ach',
    {
      schema: {
        operationId: 'updateAch',
        tags,
        summary: 'Approve or decline a waiting ACH payment (sandbox)',
        body: UpdateAchBody,
        response: { 200: AchAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = await merchantByKey(request.unit.store, request.client.id, request.body.merchant_key);
      const decided = await decideAch(
        request.unit.store,
        merchant,
        request.body.transaction_id,
        request.body.new_status,
        clock.now(),
      );
      const options = { now: clock.now(), publicUrl: config.publicUrl };
      // The bank sent the payment back: the shopper is told, by a receipt of the return written with it.
      if (decided.returnedId)
        return writeWithReceipt(request, decided, { result: true, message: 'Success.' }, decided.returnedId, options);
      const answer = await request.unit.write(decided.change, { result: true, message: 'Success.' });
      if (decided.shopperReachable)
        await sendShopperReceipt(request, merchant.id, request.body.transaction_id, options);
      return answer;
    },
  );
};
