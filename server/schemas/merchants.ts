import { Type } from 'typebox';
import { Body, Envelope, Instant } from './envelope.ts';

export const MerchantItem = Type.Object({
  businessname: Type.String(),
  email: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  join_date: Instant,
  merchant_id: Type.String(),
  phonenumber: Type.String(),
  public_data: Type.Object({ public_key: Type.String() }),
  website: Type.String(),
});

export const MerchantListAnswer = Envelope(Type.Array(MerchantItem));

export const ApproveMerchantBody = Body({
  merchant_id: Type.String({ minLength: 1, maxLength: 100, description: 'The merchant GUID (m_…), not the API key.' }),
});
