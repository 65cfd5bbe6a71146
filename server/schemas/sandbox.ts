import { Type } from 'typebox';
import { Body, Envelope, Instant, MerchantKey, OneOf } from './envelope.ts';
import { EVENT_TYPES } from '../domain/event-types.ts';

export const SandboxPayBody = Body({
  pay_link: Type.String({ minLength: 1, maxLength: 500, description: 'The pay link or QR link to pay' }),
  method: OneOf(['card', 'ach'] as const),
  card_number: Type.Optional(Type.String({ maxLength: 30 })),
  exp_month: Type.Optional(Type.Integer({ minimum: 1, maximum: 12 })),
  exp_year: Type.Optional(Type.Integer({ minimum: 0, maximum: 9999 })),
  cvc: Type.Optional(Type.String({ maxLength: 4 })),
  three_ds: Type.Optional(OneOf(['pass', 'fail'] as const, 'The answer to a 3-D Secure challenge')),
  routing_number: Type.Optional(Type.String({ maxLength: 20 })),
  account_number: Type.Optional(Type.String({ maxLength: 30 })),
  name: Type.Optional(Type.String({ maxLength: 100 })),
});
export const SandboxPayAnswer = Envelope(
  Type.Object({
    transaction_id: Type.String(),
    status: OneOf(
      ['approved', 'authorized', 'pending'] as const,
      'approved (a card sale), authorized (a hold) or pending (ACH)',
    ),
  }),
);

export const ClockBody = Body({
  hours: Type.Number({
    exclusiveMinimum: 0,
    maximum: 24 * 366,
    description: 'Hours to move forward: more than 0, at most 8784 (a leap year)',
  }),
});
export const ClockAnswer = Envelope(Type.Object({ now: Instant }));
export const SettleBody = Body({ merchant_key: MerchantKey });
export const SettleAnswer = Envelope(Type.Object({ settled: Type.Integer() }));
export const MessagesAnswer = Envelope(
  Type.Array(
    Type.Object({
      channel: Type.String(),
      recipient: Type.String(),
      text: Type.String(),
      pay_link: Type.String(),
      created_at: Instant,
    }),
  ),
);
export const UpdateAchBody = Body({
  merchant_key: MerchantKey,
  transaction_id: Type.String({ minLength: 1, maxLength: 100 }),
  new_status: OneOf(['approved', 'declined'] as const),
});

export const TriggerWebhookBody = Body({
  event_type: OneOf(EVENT_TYPES, 'The type of the test event to send'),
  merchant_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'One of your merchants (m_…) to name in the event; a made-up id when left out',
    }),
  ),
});
export const TriggerWebhookAnswer = Envelope(
  Type.Object({ event_id: Type.String(), event_type: Type.String(), data: Type.Record(Type.String(), Type.Unknown()) }),
);

/** The longest a listener's read waits for an event: well inside the service's request timeout (30 s by default). */
export const LISTEN_WAIT_MAX_SECONDS = 25;
export const ListenQuery = Type.Object({
  after: Type.Optional(
    Type.String({
      maxLength: 60,
      description:
        'The `cursor` of an earlier answer: the events written after it. Left out: none, and the cursor of now',
    }),
  ),
  wait: Type.Integer({
    minimum: 0,
    maximum: LISTEN_WAIT_MAX_SECONDS,
    default: 0,
    description: `Seconds to wait for an event when none is there yet, 0 to ${LISTEN_WAIT_MAX_SECONDS}`,
  }),
});
export const ListenAnswer = Envelope(
  Type.Object({
    events: Type.Array(
      Type.Object({
        event_id: Type.String({ description: 'The id a delivery of it carries as webhook-id' }),
        event_type: OneOf(EVENT_TYPES),
        created_at: Instant,
        data: Type.Record(Type.String(), Type.Unknown(), { description: 'As a delivery sends it' }),
      }),
      { description: 'In the order they were written (committed), at most 100' },
    ),
    cursor: Type.String({ description: 'Pass as `after` for the events written after these' }),
  }),
);
