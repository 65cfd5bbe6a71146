import { Type } from 'typebox';
import { Body, Envelope, Instant, MerchantKey, Money, OneOf, Cursor, CursorFields, PageNumber, PageSize } from './envelope.ts';
import { TransactionKinds, TransactionStatuses } from './payments.ts';
import { LogoAnswer, LogoInput } from './branding.ts';

export const PublicKeyParams = Type.Object({ public_key: Type.String({ maxLength: 100 }) });
export const LinkParams = Type.Object({ public_key: Type.String({ maxLength: 100 }), link_id: Type.String({ maxLength: 100 }) });

export const WidgetSettingsAnswer = Envelope(
  Type.Object({ merchant_name: Type.String(), environment: Type.String(), button_label: Type.String(), primary_color: Type.String(), text_color: Type.String() }),
);
export const WidgetPayLinkBody = Body({
  amount: Money('Decimal text, e.g. "10.00"'),
  order_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  description: Type.Optional(Type.String({ maxLength: 500 })),
});
export const WidgetPayLinkAnswer = Envelope(
  Type.Object({ link_id: Type.String(), pay_link: Type.String(), order_id: Type.String(), amount: Type.String(), expires_at: Instant }),
);
export const WidgetLinkStatusAnswer = Envelope(
  Type.Object({
    link_id: Type.String(),
    status: Type.Union([Type.Literal('open'), Type.Literal('paid'), Type.Literal('pending'), Type.Literal('declined'), Type.Literal('expired')], {
      description: 'open; paid (the money is the merchant\'s); pending (a bank payment waiting for the bank) or declined (refused by it); expired',
    }),
    order_id: Type.String(), amount: Type.String(),
    transaction_id: Type.Union([Type.String(), Type.Null()]),
  }),
);
export const WidgetPaymentRequestBody = Body({
  amount: Money('Decimal text, e.g. "10.00"'),
  recipient_phone: Type.String({ minLength: 1, maxLength: 32 }),
  order_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});
export const WidgetPaymentRequestAnswer = Envelope(Type.Object({ order_id: Type.String(), pay_link: Type.String() }));
export const WidgetTransactionsQuery = Type.Object({
  from_date: Type.Optional(Type.String()),
  to_date: Type.Optional(Type.String()),
  page: PageNumber(),
  perPage: PageSize(),
  cursor: Cursor(),
});
export const WidgetTransactionsAnswer = Envelope(
  Type.Object({
    items: Type.Array(
      Type.Object({
        transaction_id: Type.String(), created_date: Instant, amount: Type.String(), net_amount: Type.String(), card_brand: Type.String(),
        last_four: Type.String(), status: OneOf(TransactionStatuses), type: OneOf(TransactionKinds),
      }),
    ),
    page: Type.Integer(), perPage: Type.Integer(), totalCount: Type.Integer(), ...CursorFields,
  }),
);
export const WidgetSessionBody = Body({ merchant_key: MerchantKey });
export const WidgetSessionAnswer = Envelope(Type.Object({ session_token: Type.String(), expires_at: Instant }));
export const WidgetSettingsBody = Body({
  merchant_key: MerchantKey,
  button_label: Type.Optional(Type.String({ maxLength: 40 })),
  primary_color: Type.Optional(Type.String({ maxLength: 7 })),
  text_color: Type.Optional(Type.String({ maxLength: 7 })),
  allowed_origins: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 20 })),
  logo: Type.Optional(LogoInput),
});
export const WidgetSettingsPutAnswer = Envelope(
  Type.Object({
    button_label: Type.String(), primary_color: Type.String(), text_color: Type.String(), allowed_origins: Type.Array(Type.String()),
    logo: LogoAnswer,
  }),
);
