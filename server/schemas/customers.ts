import { Type } from 'typebox';
import { Body, Envelope, Instant, MerchantKey, Cursor, CursorFields, PageNumber, PageSize } from './envelope.ts';

const Name = Type.String({ minLength: 1, maxLength: 100 });

export const AddCustomerBody = Body({
  merchant_key: MerchantKey,
  first_name: Name,
  last_name: Name,
  email: Type.Optional(Type.String({ maxLength: 254, description: 'E-mail; email or phone_number is required.' })),
  phone_number: Type.Optional(Type.String({ maxLength: 32, description: 'Phone, stored in E.164 form.' })),
});

export const CustomerData = Type.Object({
  customer_email: Type.String(),
  customer_id: Type.String(),
  customer_phone: Type.String(),
});
export const CustomerAnswer = Envelope(CustomerData);

export const CustomerListQuery = Type.Object({
  merchant_key: MerchantKey,
  page: PageNumber(),
  perPage: PageSize('Customers per page, at most 100.'),
  cursor: Cursor(),
});

export const CustomerListItem = Type.Object({
  Email: Type.String(),
  Phone: Type.String(),
  create_date: Instant,
  customer_id: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
});

export const CustomerListAnswer = Envelope(
  Type.Object({
    allList: Type.Array(CustomerListItem),
    page: Type.Integer(),
    perPage: Type.Integer(),
    totalCount: Type.Integer(),
    totalPage: Type.Integer(),
    ...CursorFields,
  }),
);

export const CustomerParams = Type.Object({ customerId: Type.String({ maxLength: 100 }) });
export const CustomerGetQuery = Type.Object({ merchant_key: MerchantKey });
