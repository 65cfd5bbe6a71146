import { Type, type TObject, type TOptional, type TString, type TUnsafe } from 'typebox';
import { ONBOARDING_FIELDS, type FieldSpec } from '../domain/onboarding.ts';
import { Body, Envelope, MerchantKey, OneOf } from './envelope.ts';

type GroupProperties<S> = { [K in keyof S]: TOptional<TString | TUnsafe<string>> };

/**
 * One onboarding group's schema, from the same field specs the domain validates with. Every field is optional here:
 * the domain checks which are required and names every missing or invalid one in a single answer, so the schema
 * only says which fields there are and that they are text. Enumerated fields list their values, and take any case
 * and the common spellings (`LLC`, `Sole Proprietor`, `E-commerce`).
 */
function groupSchema<S extends Record<string, FieldSpec>>(specs: S): TObject<GroupProperties<S>> {
  const properties = Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => {
      const description = `${spec.label}${spec.required ? '; required by the review, which names every missing field at once' : ''}`;
      const field = spec.choices
        ? Type.Unsafe<string>({
            anyOf: [
              { type: 'string', enum: [...spec.choices] },
              { type: 'string', maxLength: 500 },
            ],
            description: `${description}: one of ${spec.choices.join(', ')}, in any case`,
          })
        : Type.String({ maxLength: 500, description });
      return [name, Type.Optional(field)];
    }),
  );
  return Type.Object(properties as GroupProperties<S>, { additionalProperties: false });
}

export const BankingInfo = groupSchema(ONBOARDING_FIELDS.BankingInfo);
export const BusinessInfo = groupSchema(ONBOARDING_FIELDS.BusinessInfo);
export const OwnerInfo = groupSchema(ONBOARDING_FIELDS.OwnerInfo);
export const ProcessingInfo = groupSchema(ONBOARDING_FIELDS.ProcessingInfo);

export const OnboardingBody = Body({
  BankingInfo: Type.Optional(BankingInfo),
  BusinessInfo: Type.Optional(BusinessInfo),
  OwnerInfo: Type.Optional(OwnerInfo),
  ProcessingInfo: Type.Optional(ProcessingInfo),
});

export const OnboardingAnswer = Envelope(
  Type.Object({
    businessname: Type.String(),
    email: Type.String(),
    merchant_key: Type.String(),
    public_key: Type.String(),
    merchant_id: Type.String({ description: 'Added by Paykit: the id that POST /approve-merchant takes.' }),
  }),
);

export const CreateSessionQuery = Type.Object({
  is_publickey: Type.Optional(Type.Boolean({ description: "true also returns the client's public key" })),
});

export const CreateSessionAnswer = Envelope(
  Type.Object({
    sessionToken: Type.String(),
    public_key: Type.Optional(Type.String()),
    expires_at: Type.String({ description: 'Added by Paykit: when the session token stops working.' }),
  }),
);

const PREFILL_FIELDS = [
  'business_name',
  'business_email',
  'business_phone',
  'business_address',
  'business_city',
  'business_state',
  'business_zip',
  'business_country',
] as const;

const RefreshUrl = Type.String({
  maxLength: 2000,
  description:
    'Added by Paykit: where a browser holding an ended onboarding link (or one opened in another browser) is sent. Your page there calls POST /auth/onboarding-link and redirects the merchant to the new link.',
});

export const HostedOnboardingBody = Body({
  company_id: Type.Optional(
    Type.String({ maxLength: 100, description: "Your own identifier for the merchant's company." }),
  ),
  refresh_url: Type.Optional(RefreshUrl),
  BusinessInfo: Type.Optional(
    Body(
      Object.fromEntries(PREFILL_FIELDS.map((f) => [f, Type.Optional(Type.String({ maxLength: 500 }))])) as Record<
        (typeof PREFILL_FIELDS)[number],
        TOptional<TString>
      >,
    ),
  ),
});

export const SessionTokenParams = Type.Object({ session_token: Type.String({ maxLength: 200 }) });

export const HostedOnboardingAnswer = Envelope(
  Type.Object({
    merchant_id: Type.String(),
    company_id: Type.String(),
    onboarding_link: Type.String({
      format: 'uri',
      description: 'Send the merchant straight to it: it opens in the first browser that opens it, and in no other.',
    }),
    expires_at: Type.String({
      description:
        'Added by Paykit: when the link stops working unless opened (15 minutes; opened, it works 7 days in that browser).',
    }),
  }),
);

export const RefreshOnboardingLinkBody = Body({
  merchant_id: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'The merchant (m_…) whose hosted onboarding continues.',
  }),
  refresh_url: Type.Optional(RefreshUrl),
});

export const OnboardingStatusBody = Body({ merchant_key: MerchantKey });
export const OnboardingStatusAnswer = Envelope(
  Type.Object({
    merchantStatus: OneOf(
      ['pending', 'completed', 'declined'] as const,
      'pending until the review decides; declined is added by Paykit',
    ),
    decline_reason: Type.Optional(
      Type.String({ description: 'Added by Paykit, when declined: why, in words to pass on to the merchant' }),
    ),
  }),
);
