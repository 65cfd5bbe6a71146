import { Type } from 'typebox';
import {
  Body,
  Envelope,
  Instant,
  MerchantKey,
  Money,
  OneOf,
  Cursor,
  CursorFields,
  PageNumber,
  PageSize,
} from './envelope.ts';
import { TransactionStatuses } from './payments.ts';
import { LogoAnswer, LogoInput } from './branding.ts';
import { CONSOLE_CARD_BRANDS, CONSOLE_STATUSES, TIMELINE_STEPS } from '../domain/console.ts';
import { PAYOUT_STATUSES } from '../domain/payouts.ts';
import { REFUND_REASONS } from '../domain/refunds.ts';

export const PublicKeyParams = Type.Object({ public_key: Type.String({ maxLength: 100 }) });
export const LinkParams = Type.Object({
  public_key: Type.String({ maxLength: 100 }),
  link_id: Type.String({ maxLength: 100 }),
});

export const WidgetSettingsAnswer = Envelope(
  Type.Object({
    merchant_name: Type.String(),
    environment: Type.String(),
    button_label: Type.String(),
    primary_color: Type.String(),
    text_color: Type.String(),
  }),
);
export const WidgetPayLinkBody = Body({
  amount: Money('Decimal text, e.g. "10.00"'),
  order_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  description: Type.Optional(Type.String({ maxLength: 500 })),
  receipt_email: Type.Optional(
    Type.String({
      maxLength: 254,
      description: "The shopper's e-mail, if the page knows it: the pay page's optional receipt field starts with it",
    }),
  ),
});
export const WidgetPayLinkAnswer = Envelope(
  Type.Object({
    link_id: Type.String(),
    pay_link: Type.String(),
    order_id: Type.String(),
    amount: Type.String(),
    expires_at: Instant,
  }),
);
export const WidgetLinkStatusAnswer = Envelope(
  Type.Object({
    link_id: Type.String(),
    status: Type.Union(
      [
        Type.Literal('open'),
        Type.Literal('paid'),
        Type.Literal('pending'),
        Type.Literal('declined'),
        Type.Literal('expired'),
      ],
      {
        description:
          "open; paid (the money is the merchant's); pending (a bank payment waiting for the bank) or declined (refused by it); expired",
      },
    ),
    order_id: Type.String(),
    amount: Type.String(),
    transaction_id: Type.Union([Type.String(), Type.Null()]),
  }),
);
export const WidgetPaymentRequestBody = Body({
  amount: Money('Decimal text, e.g. "10.00"'),
  recipient_phone: Type.String({ minLength: 1, maxLength: 32 }),
  order_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});
export const WidgetPaymentRequestAnswer = Envelope(Type.Object({ order_id: Type.String(), pay_link: Type.String() }));
const FEATURE_DESCRIPTIONS = {
  refunds: 'Refund sales, in part or in full',
  voids: 'Void sales before they settle',
  captures: 'Capture or release holds',
  export: 'Download the filtered transactions as CSV',
  receipts: 'Send a receipt to the shopper again',
  payouts: 'See the balance and the payouts, each with its entries and their CSV',
  disputes: 'Answer disputes: read them, save evidence (text and files), submit it or accept',
} as const;
const d = FEATURE_DESCRIPTIONS;
const RequestedFeatures = Type.Object(
  {
    refunds: Type.Optional(Type.Boolean({ description: d.refunds })),
    voids: Type.Optional(Type.Boolean({ description: d.voids })),
    captures: Type.Optional(Type.Boolean({ description: d.captures })),
    export: Type.Optional(Type.Boolean({ description: d.export })),
    receipts: Type.Optional(Type.Boolean({ description: d.receipts })),
    payouts: Type.Optional(Type.Boolean({ description: d.payouts })),
    disputes: Type.Optional(Type.Boolean({ description: d.disputes })),
  },
  { additionalProperties: false, description: 'What the page may do beyond reading; each false when absent' },
);
const GrantedFeatures = Type.Object({
  refunds: Type.Boolean({ description: d.refunds }),
  voids: Type.Boolean({ description: d.voids }),
  captures: Type.Boolean({ description: d.captures }),
  export: Type.Boolean({ description: d.export }),
  receipts: Type.Boolean({ description: d.receipts }),
  payouts: Type.Boolean({ description: d.payouts }),
  disputes: Type.Boolean({ description: d.disputes }),
});
export const WidgetSessionBody = Body({
  merchant_key: MerchantKey,
  features: Type.Optional(RequestedFeatures),
});
export const WidgetSessionAnswer = Envelope(
  Type.Object({
    session_token: Type.String(),
    expires_at: Instant,
    session_id: Type.String({
      description: 'Named as widget_session_id in the events of actions made through this session',
    }),
    features: GrantedFeatures,
  }),
);
export const WidgetSettingsBody = Body({
  merchant_key: MerchantKey,
  button_label: Type.Optional(Type.String({ maxLength: 40 })),
  primary_color: Type.Optional(Type.String({ maxLength: 7 })),
  text_color: Type.Optional(Type.String({ maxLength: 7 })),
  allowed_origins: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 20 })),
  logo: Type.Optional(LogoInput),
  receipts_enabled: Type.Optional(
    Type.Boolean({ description: 'Whether shoppers get receipts after payments, refunds and voids (default true)' }),
  ),
});
export const WidgetSettingsPutAnswer = Envelope(
  Type.Object({
    button_label: Type.String(),
    primary_color: Type.String(),
    text_color: Type.String(),
    allowed_origins: Type.Array(Type.String()),
    receipts_enabled: Type.Boolean(),
    logo: LogoAnswer,
  }),
);

// The payments console (issue 32): listing, details, actions and export with a widget session token.

export const ConsoleKinds = ['sale', 'refund', 'void', 'ach_return', 'preauth'] as const;
export const EXPORT_LANGUAGES = ['en', 'es', 'fr', 'de'] as const;

/** The filter and order of the console's listing, shared by its export. */
const FilterFields = {
  from_date: Type.Optional(Type.String({ description: 'YYYY-MM-DD, inclusive (UTC)' })),
  to_date: Type.Optional(Type.String({ description: 'YYYY-MM-DD, inclusive (UTC)' })),
  q: Type.Optional(
    Type.String({
      maxLength: 100,
      description:
        'A transaction id exactly; an order id in any case, whole or its beginning; a last four (4 digits); an amount (decimal text, e.g. 12.50); the e-mail a pay link was sent to.',
    }),
  ),
  status: Type.Optional(
    OneOf(
      CONSOLE_STATUSES,
      'completed (nothing refunded); refunded (in part or whole); voided; pending or declined (ACH); disputed (a sale with a dispute, open or closed)',
    ),
  ),
  kind: Type.Optional(
    OneOf(['sale', 'refund', 'void', 'hold'] as const, 'hold lists the authorizations (holds) alone'),
  ),
  card_brand: Type.Optional(OneOf(Object.keys(CONSOLE_CARD_BRANDS) as (keyof typeof CONSOLE_CARD_BRANDS)[])),
  sort: Type.Optional(OneOf(['date', 'amount'] as const, 'date (default) or amount')),
  order: Type.Optional(OneOf(['desc', 'asc'] as const, 'desc (default) or asc')),
};

export const WidgetTransactionsQuery = Type.Object({
  ...FilterFields,
  page: PageNumber(),
  perPage: PageSize(),
  cursor: Cursor(),
});
const ExportZone = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 64,
    pattern: '^[A-Za-z0-9_+\\-/]+$',
    description: 'The time zone of the dates (an IANA name such as Europe/Berlin; default UTC), named in the header',
  }),
);
const ExportLanguage = Type.Optional(
  OneOf(
    EXPORT_LANGUAGES,
    'The language of the header, types and statuses (default en); es, fr and de separate by ; with a decimal comma',
  ),
);
export const ConsoleExportQuery = Type.Object({ ...FilterFields, lang: ExportLanguage, tz: ExportZone });
export const MerchantExportQuery = Type.Object({
  merchant_key: MerchantKey,
  ...FilterFields,
  lang: ExportLanguage,
  tz: ExportZone,
});

const ConsoleItemFields = {
  transaction_id: Type.String(),
  created_date: Instant,
  amount: Type.String(),
  net_amount: Type.String(),
  card_brand: Type.String(),
  last_four: Type.String(),
  status: OneOf(
    TransactionStatuses,
    'As stored: a sale refunded in part or whole stays completed (refunded_amount tells); holds are authorized, captured or voided',
  ),
  type: OneOf(ConsoleKinds, 'sale, refund, void, ach_return, or preauth (a hold)'),
  order_id: Type.String(),
  refunded_amount: Type.String({ description: 'Decimal text' }),
  refundable_amount: Type.String({ description: 'Decimal text, "0.00" when nothing can be refunded' }),
  voidable_until: Type.Union([Instant, Type.Null()], { description: 'A void is possible until then; null when not' }),
  capturable: Type.Boolean({ description: 'A hold that can still be captured or released' }),
  dispute_id: Type.Union([Type.String(), Type.Null()], { description: "The sale's dispute; null when not disputed" }),
};
export const ConsoleItem = Type.Object(ConsoleItemFields);

export const WidgetTransactionsAnswer = Envelope(
  Type.Object({
    items: Type.Array(ConsoleItem),
    page: Type.Integer(),
    perPage: Type.Integer(),
    totalCount: Type.Integer({
      description:
        'Every matching row; with q, card_brand or status completed|refunded, counted up to 1,000 (1000 means 1,000 or more)',
    }),
    ...CursorFields,
    features: Type.Object(GrantedFeatures.properties, {
      description:
        "What the session token allows: the actions the table shows (the session's own, so page and token agree)",
    }),
  }),
);

const Details = {
  ...ConsoleItemFields,
  timeline: Type.Array(Type.Object({ at: Instant, what: OneOf(TIMELINE_STEPS), amount: Type.Optional(Type.String()) })),
  refunds: Type.Array(
    Type.Object({
      transaction_id: Type.String(),
      amount: Type.String(),
      created_date: Instant,
      reason: Type.Union([OneOf(REFUND_REASONS), Type.Null()], {
        description: 'As the merchant gave it; null when none',
      }),
      reason_note: Type.Union([Type.String(), Type.Null()], {
        description: 'The merchant\'s words with reason "other"',
      }),
    }),
  ),
  money: Type.Object(
    {
      fee_amount: Type.String({
        description:
          'The processor\'s fee it kept, decimal text: "0.00" once a void gave it back, and for a refund or a hold',
      }),
      payout: Type.Union(
        [
          Type.Object({
            payout_id: Type.String(),
            status: OneOf(PAYOUT_STATUSES),
            arrival_date: Type.String({ format: 'date' }),
          }),
          Type.Null(),
        ],
        { description: 'The payout its money went out in; null while it is in the balance' },
      ),
    },
    { description: 'Where its money went (docs/payouts.md)' },
  ),
};
export const ConsoleDetailsAnswer = Envelope(Type.Object(Details));
export const ConsoleUndoAnswer = Envelope(Type.Object({ ...Details, undone_as: OneOf(['void', 'refund'] as const) }));

export const ConsoleParams = Type.Object({ transaction_id: Type.String({ minLength: 1, maxLength: 100 }) });
export const ConsoleHoldAmountBody = Body({
  amount: Money('The amount the hold should be, decimal text, e.g. "40.00"'),
});
export const ConsoleAmountBody = Body({
  amount: Type.Optional(Money('Decimal text, e.g. "5.00"; absent for the whole amount')),
});
export const ConsoleRefundBody = Body({
  amount: Type.Optional(Money('Decimal text, e.g. "5.00"; absent for the whole amount')),
  reason: Type.Optional(Type.String({ maxLength: 40, description: 'As POST /order/sales-return takes it' })),
  reason_note: Type.Optional(Type.String({ maxLength: 400, description: 'Required with reason "other"' })),
});
export const ConsoleEmptyBody = Type.Union([Body({}), Type.Null()]);
export const ConsoleReceiptBody = Type.Union([
  Body({
    email: Type.Optional(Type.String({ maxLength: 254, description: 'Send it to this address instead' })),
    phone: Type.Optional(Type.String({ maxLength: 32, description: 'Send it by SMS to this number instead' })),
  }),
  Type.Null(),
]);

/** The CSV an export streams: a header row in `lang`, then every matching row; amounts as the language writes numbers. */
export const TransactionsCsv = {
  description:
    "Done: CSV (RFC 4180, CRLF lines, UTF-8 with a byte-order mark), a header row then every matching row: dates in `tz` (named in the header) as YYYY-MM-DD HH:MM:SS, types and statuses in `lang`, amounts without a currency sign with the language's decimal mark, no fee or net for pending or declined ACH payments.",
  content: { 'text/csv': { schema: { type: 'string' } } },
} as const;
