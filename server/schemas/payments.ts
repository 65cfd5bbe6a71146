import { Type } from 'typebox';
import { REFUND_REASONS } from '../domain/refunds.ts';
import { HOLD_MOVES } from '../domain/preauth.ts';
import {
  Body,
  Envelope,
  Instant,
  MerchantKey,
  Money,
  OneOf,
  Cursor,
  CursorFields,
  PageLimit,
  PageNumber,
  PageSize,
} from './envelope.ts';

const Flag = (description: string) => Type.Optional(Type.Boolean({ description }));

export const PaymentRequestBody = Body({
  merchant_key: MerchantKey,
  amount: Money('Payment amount, decimal text greater than zero, e.g. "25.00"'),
  order_id: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'Your unique order reference, at most 100 characters',
  }),
  phone_number: Type.Optional(
    Type.String({ maxLength: 32, description: 'When given, an SMS with the pay link is sent' }),
  ),
  email: Type.Optional(Type.String({ maxLength: 254, description: 'When given, an e-mail with the pay link is sent' })),
  name: Type.Optional(Type.String({ maxLength: 100, description: 'Customer name, used in the e-mail' })),
  preauth: Flag('true authorizes (holds) instead of charging; cards only'),
  pass_fee: Flag('Pass the processing fee to the customer'),
  require_3ds: Flag('Require 3-D Secure'),
  allow_card: Flag('Allow card payment; default true'),
  allow_ach: Flag('Allow ACH payment; default true'),
  invoice_number: Type.Optional(Type.String({ maxLength: 100, description: 'Letters and digits, at most 100' })),
  sub_merchant_key: Type.Optional(Type.String({ maxLength: 200 })),
  discount: Type.Optional(Money('Discount, decimal text')),
  surcharge: Type.Optional(Money('Surcharge, decimal text')),
  tax: Type.Optional(Money('Tax, decimal text')),
  description: Type.Optional(Type.String({ maxLength: 500, description: 'Payment description shown on the pay page' })),
});

export const PaymentRequestAnswer = Envelope(
  Type.Object({ order_id: Type.String(), link_id: Type.String(), pay_link: Type.String() }),
);
export const CustomerRequestAnswer = Envelope(
  Type.Object({ order_id: Type.String(), pay_link: Type.String(), sales_id: Type.String(), link_id: Type.String() }),
);
export const QrBody = Body({
  merchant_key: MerchantKey,
  amount: Money('Payment amount, decimal text'),
  order_id: Type.String({ minLength: 1, maxLength: 100 }),
  description: Type.Optional(Type.String({ maxLength: 500 })),
});
export const QrAnswer = Envelope(
  Type.Object({
    order_id: Type.String(),
    qr_code_link: Type.String(),
    sales_id: Type.String(),
    pay_link: Type.String(),
  }),
);

export const ChargeCustomerBody = Body({
  merchant_key: MerchantKey,
  amount: Money('Amount to charge, e.g. 25.5'),
  order_id: Type.String({ minLength: 1, maxLength: 100 }),
});
export const ChargeCustomerAnswer = Type.Object({
  result: Type.Boolean(),
  message: Type.String(),
  transaction_id: Type.String(),
});

const OtherDetails = Type.Object({ auth_code: Type.String(), card_brand: Type.String(), last_four: Type.String() });
export const TransactionKinds = ['sale', 'refund', 'void', 'ach_return'] as const;
export const TransactionStatuses = ['pending', 'completed', 'declined', 'voided', 'authorized', 'captured'] as const;
export const TransactionStates = ['pending', 'completed', 'partly_refunded', 'refunded', 'declined', 'voided'] as const;
const Extras = {
  type: OneOf(TransactionKinds, 'What the transaction is: a sale, or the refund, void or ACH return of one'),
  status: OneOf(
    TransactionStatuses,
    'As stored: pending (ACH waiting), completed, declined or voided; a sale refunded in part or whole stays completed',
  ),
  state: OneOf(
    TransactionStates,
    'As a merchant reads it: the status, but partly_refunded or refunded for a completed sale with refunds (refunded_amount tells how much)',
  ),
  method: OneOf(['card', 'ach'] as const),
  order_id: Type.String(),
  refunded_amount: Type.String(),
  settled: Type.Boolean(),
  parent_transaction_id: Type.Union([Type.String(), Type.Null()]),
  refund_reason: Type.Union([OneOf(REFUND_REASONS), Type.Null()], {
    description: "A refund's reason as the merchant gave it (POST /order/sales-return); null when none was given",
  }),
  refund_note: Type.Union([Type.String(), Type.Null()], { description: "The merchant's words with a reason" }),
  dispute_id: Type.Union([Type.String(), Type.Null()], {
    description: 'The dispute of a disputed sale (GET /disputes/{dispute_id}): it can be neither refunded nor voided',
  }),
};

export const TransactionListQuery = Type.Object({
  merchant_key: MerchantKey,
  from_date: Type.Optional(Type.String({ description: 'YYYY-MM-DD, inclusive (UTC)' })),
  to_date: Type.Optional(Type.String({ description: 'YYYY-MM-DD, inclusive (UTC)' })),
  limit: Type.Optional(PageLimit()),
  pageNumber: PageNumber(),
  cursor: Cursor(),
});
export const TransactionListAnswer = Type.Object({
  result: Type.Boolean(),
  message: Type.String(),
  total: Type.Integer(),
  ...CursorFields,
  data: Type.Array(
    Type.Object({
      transaction_id: Type.String(),
      amount: Type.String(),
      created_date: Instant,
      fee_percentage: Type.String(),
      net_amount: Type.Number(),
      other_details: OtherDetails,
      ...Extras,
    }),
  ),
});

export const TransactionParams = Type.Object({ transaction_id: Type.String({ maxLength: 100 }) });
export const TransactionGetQuery = Type.Object({ merchant_key: MerchantKey });
export const TransactionGetAnswer = Envelope(
  Type.Array(
    Type.Object({
      transaction_id: Type.String(),
      amount: Type.String(),
      transaction_date: Instant,
      fee_percentage: Type.String(),
      net_amount: Type.Number(),
      other_details: Type.Object({ authcode: Type.String(), cardType: Type.String(), lastFourDigits: Type.String() }),
      ...Extras,
    }),
  ),
);

export const RefundBody = Body({
  merchant_key: MerchantKey,
  transaction_id: Type.String({ minLength: 1, maxLength: 100 }),
  amount: Money('Amount to refund; not more than the remaining refundable balance'),
  sub_merchant_key: Type.Optional(Type.String({ maxLength: 200 })),
  reason: Type.Optional(
    Type.String({ maxLength: 40, description: `Why, optional: one of ${REFUND_REASONS.join(', ')}` }),
  ),
  reason_note: Type.Optional(
    Type.String({ maxLength: 400, description: 'In your words, at most 200 characters; required with reason "other"' }),
  ),
});
export const VoidBody = Body({
  merchant_key: MerchantKey,
  transaction_id: Type.String({ minLength: 1, maxLength: 100 }),
  sub_merchant_key: Type.Optional(Type.String({ maxLength: 200 })),
  amount: Type.Optional(
    Type.String({ maxLength: 20, description: 'Ignored: a void is always of the whole transaction' }),
  ),
});
export const ReversalAnswer = Envelope(
  Type.Object({
    sales_id: Type.String(),
    transaction_id: Type.String(),
    order_createdfrom: Type.String(),
    amount: Type.Number(),
    txn_id: Type.String(),
    txn_date: Instant,
    linked_txn_id: Type.String({
      description: 'The original: the sale refunded or voided (in the payment.refund event it is the refund itself)',
    }),
    Status: OneOf(['Success', 'Error'] as const),
    type: OneOf(['Refund', 'Void'] as const),
    reason: Type.Optional(OneOf(REFUND_REASONS, 'The reason given with the refund, if any')),
    reason_note: Type.Optional(Type.String({ description: 'The note given with the reason, if any' })),
  }),
);

export const CaptureBody = Body({
  merchant_key: MerchantKey,
  transaction_id: Type.String({ minLength: 1, maxLength: 100, description: 'The preauthorization id' }),
  last_authorized_amount: Type.Optional(Money('When given, must equal the amount authorized now')),
});
export const CaptureAnswer = Envelope(
  Type.Object({
    Status: OneOf(['Approved'] as const),
    Account: Type.String(),
    Brand: Type.String(),
    AuthCode: Type.String(),
    amount: Type.String(),
    Authorized: Type.Number(),
    orderid: Type.String(),
    transaction_id: Type.String(),
    net_amount: Type.Number(),
  }),
);
export const UpdatePreauthBody = Body({
  merchant_key: MerchantKey,
  transaction_id: Type.String({ minLength: 1, maxLength: 100 }),
  new_authorized_amount: Money('The amount to authorize from now on'),
  last_authorized_amount: Money('Must equal the amount authorized now'),
});
export const UpdatePreauthAnswer = Envelope(
  Type.Object({
    transaction_id: Type.String(),
    order_id: Type.String(),
    previous_amount: Type.String(),
    authorized_amount: Type.String(),
    change: OneOf(['increment', 'decrement'] as const),
  }),
);
const Hold = Type.Object({
  transaction_id: Type.String({ description: 'The preauthorization id (guid of the preauth event)' }),
  order_id: Type.String(),
  amount: Type.String({ description: 'The amount authorized now: what last_authorized_amount must say' }),
  status: OneOf(['authorized', 'captured', 'voided'] as const),
  customer_id: Type.String({ description: 'The stored customer, or "" when none' }),
  card_brand: Type.String(),
  last_four: Type.String(),
  created_date: Instant,
  captured_transaction_id: Type.Union([Type.String(), Type.Null()], { description: 'The sale the capture made' }),
  authorized_amount: Type.String({ description: 'The amount first authorized' }),
  captured_amount: Type.Union([Type.String(), Type.Null()], { description: 'What the capture charged' }),
  released_amount: Type.Union([Type.String(), Type.Null()], {
    description: 'What went back to the card: the rest at a capture of less, or all at a void',
  }),
  history: Type.Array(
    Type.Object({
      move: OneOf(HOLD_MOVES),
      amount: Type.String({ description: 'Authorized after a raise or cut; charged or released otherwise' }),
      at: Instant,
    }),
    { description: 'Oldest first: authorized, each increase and decrease, captured, released' },
  ),
});
export const HoldParams = Type.Object({ transaction_id: Type.String({ maxLength: 100 }) });
export const HoldQuery = Type.Object({ merchant_key: MerchantKey });
export const HoldAnswer = Envelope(Hold);
export const HoldListQuery = Type.Object({
  merchant_key: MerchantKey,
  status: Type.Optional(OneOf(['authorized', 'captured', 'voided'] as const)),
  page: PageNumber(),
  perPage: PageSize(),
  cursor: Cursor(),
});
export const HoldListAnswer = Envelope(
  Type.Object({
    items: Type.Array(Hold),
    page: Type.Integer(),
    perPage: Type.Integer(),
    totalCount: Type.Integer(),
    ...CursorFields,
  }),
);

export const VoidPreauthBody = Body({
  merchant_key: MerchantKey,
  transaction_id: Type.String({ minLength: 1, maxLength: 100 }),
});
export const VoidPreauthAnswer = Envelope(
  Type.Object({
    transaction_id: Type.String(),
    order_id: Type.String(),
    amount: Type.String(),
    Status: OneOf(['Voided'] as const),
  }),
);
