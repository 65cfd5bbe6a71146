import type { Store } from '../store/store.ts';
import type { Customer } from '../store/customers.ts';
import { invalid } from '../domain/refusals.ts';
import { isEmail } from '../domain/contact.ts';
import { normalizePhone } from '../../rules/phone.ts';
import { newId } from '../platform/secrets.ts';
import { merchantByKey } from './merchant-access.ts';
import { isoInstant } from '../domain/instants.ts';
import type { Decided } from './guarded.ts';

export interface NewCustomer {
  merchant_key: string;
  first_name: string;
  last_name: string;
  email?: string | undefined;
  phone_number?: string | undefined;
}

/** POST /customers/add: a customer of one of the client's merchants, as the change that adds it. */
export async function addCustomer(
  store: Store,
  clientId: string,
  input: NewCustomer,
  now: Date,
): Promise<Decided<Customer>> {
  const merchant = await merchantByKey(store, clientId, input.merchant_key);
  const firstName = input.first_name.trim();
  const lastName = input.last_name.trim();
  const email = input.email?.trim() ?? '';
  const rawPhone = input.phone_number?.trim() ?? '';
  if (!firstName || !lastName) throw invalid('first_name and last_name must not be blank.');
  if (!email && !rawPhone)
    throw invalid('Give the customer an email or a phone_number (or both), so a pay link can reach them.');
  if (email && !isEmail(email)) throw invalid(`email "${email}" is not an e-mail address, e.g. jane@example.com.`);
  const phone = rawPhone ? normalizePhone(rawPhone) : '';
  if (phone === null) {
    throw invalid(
      `phone_number "${rawPhone}" is not a phone number: send "+" and the country code, or ten digits, e.g. +14155550123.`,
    );
  }
  const customer: Customer = {
    id: newId('c_'),
    merchant_id: merchant.id,
    first_name: firstName,
    last_name: lastName,
    email: email.toLowerCase(),
    phone,
    created_at: isoInstant(now),
  };
  return { change: { guards: [], rows: [{ table: 'customers', row: customer }], events: [] }, result: customer };
}
