import { Type } from 'typebox';
import {
  Body,
  Envelope,
  Instant,
  OneOf,
  Cursor,
  CursorFields,
  PageNumber,
  PageSize,
  StatusEnvelope,
} from './envelope.ts';

export const WebhookUrlBody = Body({
  webhook_url: Type.String({ minLength: 1, maxLength: 2000, description: 'http(s) URL that receives every event' }),
});

const Registration = Type.Object({
  webhook_url: Type.String(),
  signing_secret: Type.String({ description: 'whsec_…: verify deliveries with it (Standard Webhooks)' }),
});
export const WebhookUrlAnswer = StatusEnvelope(Registration);

export const WebhookEndpointAnswer = Envelope(
  Type.Object({
    webhook_url: Type.String(),
    signing_secret: Type.String(),
    previous_secret_expires_at: Type.Union([Instant, Type.Null()], {
      description: 'During a rotation: when the old secret stops signing',
    }),
    enabled: Type.Boolean(),
    disabled_reason: Type.Union([Type.String(), Type.Null()]),
    updated_at: Instant,
  }),
);

export const RotateBody = Body({
  overlap_hours: Type.Integer({
    minimum: 0,
    maximum: 168,
    default: 24,
    description: 'How long the old secret keeps signing too',
  }),
});

export const DeliveryQuery = Type.Object({
  status: Type.Optional(OneOf(['pending', 'delivered', 'failed'] as const)),
  page: PageNumber(),
  perPage: PageSize(),
  cursor: Cursor(),
});

const Delivery = {
  event_id: Type.String(),
  event_type: Type.String(),
  created_at: Instant,
  delivery_status: OneOf(['pending', 'delivered', 'failed'] as const),
  attempts: Type.Integer(),
  next_attempt_at: Type.Union([Instant, Type.Null()]),
  delivered_at: Type.Union([Instant, Type.Null()]),
};
export const DeliveryListAnswer = Envelope(
  Type.Object({
    items: Type.Array(Type.Object(Delivery)),
    page: Type.Integer(),
    perPage: Type.Integer(),
    totalCount: Type.Integer(),
    ...CursorFields,
  }),
);
export const EventParams = Type.Object({ event_id: Type.String({ maxLength: 100 }) });
export const DeliveryAnswer = Envelope(
  Type.Object({
    ...Delivery,
    data: Type.Record(Type.String(), Type.Unknown()),
    attempt_log: Type.Array(
      Type.Object({
        attempted_at: Instant,
        url: Type.String(),
        status_code: Type.Union([Type.Integer(), Type.Null()]),
        error: Type.Union([Type.String(), Type.Null()]),
        duration_ms: Type.Integer(),
      }),
    ),
  }),
);
