import { Type } from 'typebox';
import { Body, Cursor, CursorFields, Envelope, Instant, MerchantKey, OneOf, PageSize } from './envelope.ts';
import { EXPORT_LANGUAGES } from './widgets.ts';
import { ENTRY_TYPES } from '../domain/ledger.ts';
import { PAYOUT_INTERVALS, PAYOUT_STATUSES } from '../domain/payouts.ts';
import { WEEKDAYS } from '../domain/business-days.ts';

const Amount = (description: string) =>
  Type.String({ description: `${description}, decimal text (e.g. "12.50"; "-3.00" when negative)` });
const IsoDate = (description: string) => Type.String({ format: 'date', description });

export const Balance = Type.Object({
  currency: OneOf(['USD'] as const),
  available: Amount('What the next payout takes: money available by today, less refunds; negative is carried forward'),
  pending: Amount(
    'Money not yet available: card sales until two business days after they settle, ACH payments their bank has not approved',
  ),
});
export const BalanceAnswer = Envelope(Balance);
export const MerchantQuery = Type.Object({ merchant_key: MerchantKey });

export const Payout = Type.Object({
  payout_id: Type.String(),
  amount: Amount('The sum of its entries'),
  currency: OneOf(['USD'] as const),
  status: OneOf(
    PAYOUT_STATUSES,
    'pending (made), in_transit (sent to the bank), paid (arrived) or failed (refused: its money is back in the balance)',
  ),
  period: Type.Union([IsoDate('The scheduled day it pays out'), Type.Null()], {
    description: 'The day of the schedule it pays out; null for a payout asked for (manual)',
  }),
  arrival_date: IsoDate('The business day it reaches the bank'),
  bank_last_four: Type.String(),
  entry_count: Type.Integer(),
  created_date: Instant,
  failure_code: Type.Union([Type.String(), Type.Null()], { description: 'account_closed when it failed' }),
  failure_message: Type.Union([Type.String(), Type.Null()]),
});
export const PayoutAnswer = Envelope(Payout);
export const PayoutParams = Type.Object({ payout_id: Type.String({ minLength: 1, maxLength: 100 }) });
/** New lists page by cursor only: a page number shifts while payments land (docs/payments.md). */
const PageFields = { perPage: PageSize(), cursor: Cursor() };
export const PayoutListQuery = Type.Object({ merchant_key: MerchantKey, ...PageFields });
export const PayoutListAnswer = Envelope(Type.Object({ items: Type.Array(Payout), ...CursorFields }));
export const CreatePayoutBody = Body({ merchant_key: MerchantKey });

export const LedgerEntry = Type.Object({
  type: OneOf(
    ENTRY_TYPES,
    "sale (its gross), fee (the processor's, charged), refund, void, ach_return, fee_refund (a fee given back with a void or return); a dispute's: dispute, dispute_fee, and when won dispute_reversal, dispute_fee_refund",
  ),
  gross: Amount('The money of the sale or reversal; 0.00 for a fee'),
  fee: Amount("The processor's fee it charges (negative: gives back); 0.00 for money"),
  net: Amount('What it adds to the balance: gross less fee'),
  transaction_id: Type.String(),
  order_id: Type.String(),
  created_date: Instant,
  available_on: Type.Union([IsoDate('When it became or becomes available'), Type.Null()], {
    description: 'null while an ACH payment waits for its bank',
  }),
  payout_id: Type.Union([Type.String(), Type.Null()], {
    description: 'The payout that swept it; null while in the balance',
  }),
});
export const PayoutEntriesQuery = Type.Object({ merchant_key: MerchantKey, ...PageFields });
export const PayoutEntriesAnswer = Envelope(Type.Object({ items: Type.Array(LedgerEntry), ...CursorFields }));
const Lang = Type.Optional(OneOf(EXPORT_LANGUAGES, "The header row's language (default en)"));
export const PayoutCsvQuery = Type.Object({ merchant_key: MerchantKey, lang: Lang });
export const EntriesCsvQuery = Type.Object({
  merchant_key: MerchantKey,
  from_date: Type.String({ description: 'YYYY-MM-DD, inclusive (UTC): entries created from that day' }),
  to_date: Type.String({ description: 'YYYY-MM-DD, inclusive (UTC)' }),
  lang: Lang,
});
export const EntriesCsv = {
  description: 'Done: CSV (RFC 4180, CRLF lines, UTF-8), a header row then one line per entry, newest first.',
  content: { 'text/csv': { schema: { type: 'string' } } },
} as const;

const SettingsFields = {
  interval: OneOf(
    PAYOUT_INTERVALS,
    'daily (each business day, the default), weekly (on weekly_anchor) or manual (POST /payouts)',
  ),
  weekly_anchor: OneOf(WEEKDAYS, 'The day of a weekly payout (default monday)'),
};
export const PayoutSettings = Type.Object({
  ...SettingsFields,
  bank_last_four: Type.String({ description: 'The account payouts go to: the last four digits only are kept' }),
  routing_number: Type.String(),
  paused: Type.Boolean({ description: 'A payout failed: none is made until the bank account changes' }),
  paused_at: Type.Union([Instant, Type.Null()]),
});
export const PayoutSettingsAnswer = Envelope(PayoutSettings);
export const PayoutSettingsBody = Body({
  merchant_key: MerchantKey,
  interval: Type.Optional(SettingsFields.interval),
  weekly_anchor: Type.Optional(SettingsFields.weekly_anchor),
  routing_number: Type.Optional(
    Type.String({ maxLength: 9, description: 'With account_number: a new bank account (resumes paused payouts)' }),
  ),
  account_number: Type.Optional(
    Type.String({ maxLength: 17, description: '4 to 17 digits; only the last four are kept' }),
  ),
});

// The console's payouts view (session feature: payouts): the balance with the first page of payouts, each payout's entries.
export const WidgetPageQuery = Type.Object(PageFields);
export const WidgetPayoutsAnswer = Envelope(
  Type.Object({ balance: Balance, items: Type.Array(Payout), ...CursorFields }),
);
export const WidgetPayoutCsvQuery = Type.Object({ lang: Lang });

export const PayoutRunBody = Body({ merchant_key: Type.Optional(MerchantKey) });
export const PayoutRunAnswer = Envelope(
  Type.Object({
    created: Type.Integer({ description: 'Payouts made' }),
    in_transit: Type.Integer({ description: 'Payouts sent to the bank' }),
    paid: Type.Integer({ description: 'Payouts that arrived' }),
    failed: Type.Integer({ description: 'Payouts the bank refused' }),
  }),
);
