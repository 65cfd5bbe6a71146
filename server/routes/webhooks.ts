import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../plugins/deps.ts';
import { notFound } from '../domain/refusals.ts';
import type { EventDelivery } from '../store/events.ts';
import { failures } from '../schemas/envelope.ts';
import {
  DeliveryAnswer,
  DeliveryListAnswer,
  DeliveryQuery,
  EventParams,
  RotateBody,
  WebhookEndpointAnswer,
  WebhookUrlAnswer,
  WebhookUrlBody,
} from '../schemas/webhooks.ts';
import { checkedWebhookUrl, saveWebhookUrl, rotateSigningSecret, webhookEndpoint } from '../services/webhooks.ts';
import { redactSecrets } from '../domain/event-secrets.ts';
import { isoInstant } from '../domain/instants.ts';
import { cursorFields, pageStart } from '../services/cursors.ts';

const tags = ['Webhooks'];

const delivery = (e: EventDelivery) => ({
  event_id: e.id,
  event_type: e.event_type,
  created_at: e.created_at,
  delivery_status: e.delivery_status,
  attempts: e.attempts,
  next_attempt_at: e.delivery_status === 'pending' ? e.next_attempt_at || e.created_at : null,
  delivered_at: e.delivered_at,
});

export const webhookRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { clock, config, dispatcher }) => {
  app.post(
    '/client/update-webhooks-url',
    {
      config: { envelope: 'status' },
      schema: {
        operationId: 'registerWebhookUrl',
        tags,
        summary: 'Register the one URL that receives every event (replaces the one before)',
        body: WebhookUrlBody,
        response: { 200: WebhookUrlAnswer, ...failures },
      },
    },
    async (request) => {
      // The URL may need DNS looked up: checked before the write, which then holds nothing open for it.
      const url = await checkedWebhookUrl(request.body.webhook_url, config.environment === 'sandbox');
      const answer = await request.unit.transaction(async (tx) => {
        const endpoint = await saveWebhookUrl(tx, request.client.id, url, clock.now());
        return {
          status: true,
          message: 'Webhook URL updated.',
          data: { webhook_url: endpoint.url, signing_secret: endpoint.secret },
        };
      });
      dispatcher?.wake();
      return answer;
    },
  );

  app.get(
    '/client/webhooks',
    {
      schema: {
        operationId: 'getWebhookEndpoint',
        tags,
        summary: 'Read the webhook registration',
        response: { 200: WebhookEndpointAnswer, ...failures },
      },
    },
    async (request) => {
      const endpoint = await webhookEndpoint(request.unit.store, request.client.id);
      const now = isoInstant(clock.now());
      return {
        result: true,
        message: 'Webhook registration retrieved.',
        data: {
          webhook_url: endpoint.url,
          signing_secret: endpoint.secret,
          previous_secret_expires_at:
            endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > now
              ? endpoint.previous_secret_expires_at
              : null,
          enabled: endpoint.disabled_at === null,
          disabled_reason: endpoint.disabled_reason,
          updated_at: endpoint.updated_at,
        },
      };
    },
  );

  app.post(
    '/client/webhooks/rotate-secret',
    {
      schema: {
        operationId: 'rotateWebhookSecret',
        tags,
        summary: 'Rotate the signing secret; the old one keeps signing beside it for a while',
        body: RotateBody,
        response: { 200: WebhookEndpointAnswer, ...failures },
      },
    },
    async (request) =>
      request.unit.transaction(async (tx) => {
        const endpoint = await rotateSigningSecret(tx, request.client.id, request.body.overlap_hours, clock.now());
        return {
          result: true,
          message: endpoint.previous_secret
            ? `Signing secret rotated; the old one also signs until ${endpoint.previous_secret_expires_at}.`
            : 'Signing secret rotated.',
          data: {
            webhook_url: endpoint.url,
            signing_secret: endpoint.secret,
            previous_secret_expires_at: endpoint.previous_secret_expires_at,
            enabled: endpoint.disabled_at === null,
            disabled_reason: endpoint.disabled_reason,
            updated_at: endpoint.updated_at,
          },
        };
      }),
  );

  app.get(
    '/client/webhooks/events',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        tags,
        summary: 'The delivery log: every event, newest first, with its delivery state',
        querystring: DeliveryQuery,
        response: { 200: DeliveryListAnswer, ...failures },
      },
    },
    async (request) => {
      const { status, page, perPage, cursor } = request.query;
      const start = pageStart(cursor, page, perPage);
      const listed = await request.unit.store.events.deliveries(request.client.id, status, perPage, start);
      return {
        result: true,
        message: 'Deliveries retrieved.',
        data: { items: listed.items.map(delivery), page, perPage, totalCount: listed.total, ...cursorFields(listed) },
      };
    },
  );

  app.get(
    '/client/webhooks/events/:event_id',
    {
      schema: {
        operationId: 'getWebhookDelivery',
        tags,
        summary: 'One event, its data and every delivery attempt',
        params: EventParams,
        response: { 200: DeliveryAnswer, ...failures },
      },
    },
    async (request) => {
      const event = await request.unit.store.events.findForClient(request.client.id, request.params.event_id);
      if (!event) throw notFound(`No event ${request.params.event_id} of yours.`);
      const attempts = await request.unit.store.webhookEndpoints.attemptsFor(event.id);
      return {
        result: true,
        message: 'Delivery retrieved.',
        data: {
          ...delivery(event),
          data: redactSecrets(event.event_type, event.data),
          attempt_log: attempts.map((a) => ({
            attempted_at: a.attempted_at,
            url: a.url,
            status_code: a.status_code,
            error: a.error,
            duration_ms: a.duration_ms,
          })),
        },
      };
    },
  );

  app.post(
    '/client/webhooks/events/:event_id/resend',
    {
      schema: {
        operationId: 'resendWebhookDelivery',
        tags,
        summary: 'Send an event again, from the start of the retry schedule',
        params: EventParams,
        response: { 200: DeliveryAnswer, ...failures },
      },
    },
    async (request) => {
      const answer = await request.unit.transaction(async (tx) => {
        if (!(await tx.events.resend(request.client.id, request.params.event_id)))
          throw notFound(`No event ${request.params.event_id} of yours.`);
        const event = (await tx.events.findForClient(request.client.id, request.params.event_id))!;
        const attempts = await tx.webhookEndpoints.attemptsFor(event.id);
        return {
          result: true,
          message: 'The event will be sent again.',
          data: {
            ...delivery(event),
            data: redactSecrets(event.event_type, event.data),
            attempt_log: attempts.map((a) => ({
              attempted_at: a.attempted_at,
              url: a.url,
              status_code: a.status_code,
              error: a.error,
              duration_ms: a.duration_ms,
            })),
          },
        };
      });
      dispatcher?.wake();
      return answer;
    },
  );
};
