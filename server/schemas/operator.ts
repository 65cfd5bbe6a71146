import { Type } from 'typebox';
import { Body, Envelope, Instant, OneOf, PageNumber, PageSize } from './envelope.ts';

const Application = {
  merchant_id: Type.String(),
  client_id: Type.String({ description: 'The partner that onboarded the merchant' }),
  company_id: Type.String(),
  business_name: Type.String(),
  email: Type.String(),
  status: OneOf(['invited', 'pending', 'completed', 'declined'] as const),
  submitted_at: Type.Union([Instant, Type.Null()]),
  decline_reason: Type.Union([Type.String(), Type.Null()]),
};

export const ApplicationListQuery = Type.Object({
  status: Type.Optional(
    OneOf(['invited', 'pending', 'completed', 'declined'] as const, 'pending (the review queue) unless given'),
  ),
  page: PageNumber(),
  perPage: PageSize(),
});
export const ApplicationParams = Type.Object({
  merchant: Type.String({ maxLength: 200, description: 'The merchant_id (m_…) or the merchant key (mk_…)' }),
});
export const ApplicationListAnswer = Envelope(
  Type.Object({
    items: Type.Array(Type.Object(Application)),
    page: Type.Integer(),
    perPage: Type.Integer(),
    totalCount: Type.Integer(),
  }),
);
export const ApplicationAnswer = Envelope(
  Type.Object({
    ...Application,
    application: Type.Record(Type.String(), Type.Unknown(), {
      description: 'As submitted, without SSN or full account number',
    }),
    reviews: Type.Array(
      Type.Object({
        decision: OneOf(['approved', 'declined'] as const),
        reason: Type.String(),
        reviewer: Type.String(),
        decided_at: Instant,
      }),
    ),
  }),
);
export const DecisionAnswer = Envelope(Type.Object(Application));
export const ApproveBody = Body({
  note: Type.Optional(Type.String({ maxLength: 500, description: 'Kept in the audit trail' })),
});
export const DeclineBody = Body({
  reason: Type.String({
    minLength: 1,
    maxLength: 500,
    description: 'Why, in words the partner can pass on to the merchant',
  }),
});
