import { isValidAccountNumber, isValidRoutingNumber } from './routing-number.ts';
import { isCountryCode, isEmail, isWebsite, normalizePhone } from './contact.ts';
import { isIsoDate, yearsBetween } from './calendar.ts';
import { parseAmount } from './money.ts';

/** Allowed values of the enumerated onboarding fields (the interface leaves them open; docs/onboarding.md). */
export const OWNERSHIP_TYPES = [
  'sole_proprietorship', 'partnership', 'llc', 'corporation', 's_corporation', 'non_profit', 'government',
] as const;
export const BUSINESS_INDUSTRIES = [
  'retail', 'restaurant', 'ecommerce', 'professional_services', 'healthcare', 'education', 'hospitality',
  'travel', 'automotive', 'home_services', 'personal_care', 'nonprofit', 'other',
] as const;
export const PROCESSING_ENVIRONMENTS = ['card_present', 'ecommerce', 'moto', 'mixed'] as const;
export const PRODUCTS_SOLD = ['physical_goods', 'digital_goods', 'services', 'subscriptions', 'mixed'] as const;

export type OnboardingGroup = 'BankingInfo' | 'BusinessInfo' | 'OwnerInfo' | 'ProcessingInfo';
export type OnboardingApplication = Record<OnboardingGroup, Record<string, string | undefined>>;
export interface FieldError {
  /** `Group.field`, e.g. `BusinessInfo.ein`. */
  field: string;
  message: string;
}

/**
 * What a rule says is wrong with a value, after the field's name (`BusinessInfo.ein must be 9 digits…`). Named, so
 * that the hosted form can say the same in the merchant's language (server/pages/i18n/).
 */
export const RULE_PROBLEMS = {
  percent: 'must be a number from 0 to 100, e.g. "25"',
  amount: 'must be a positive amount with at most two decimals, e.g. "25000.00"',
  email: 'must be an e-mail address, e.g. owner@example.com',
  phone: 'must be a phone number: "+" and country code, or ten digits, e.g. +14155550123',
  country: 'must be a two-letter country code, e.g. "US"',
  zip: 'must be a postal code, e.g. "94107"',
  establishedFormat: 'must be a date written YYYY-MM-DD, e.g. "2019-04-01"',
  future: 'must not be in the future',
  birthFormat: 'must be a date written YYYY-MM-DD, e.g. "1985-07-14"',
  underage: 'must be the date of birth of an owner at least 18 years old',
  birthUnreal: 'must be a real date of birth',
  accountNumber: 'must be 4 to 17 digits',
  routingNumber: 'must be a nine-digit ABA routing number with a valid checksum, e.g. "110000000"',
  ein: 'must be 9 digits, e.g. "12-3456789"',
  website: 'must be a web address starting with https://',
  licence: 'must be 4 to 20 letters or digits',
  ssn: 'must be a valid nine-digit SSN, e.g. "123-45-6789"',
} as const;

/** A rule returns what is wrong with a present, non-empty value, or null when it is fine. */
type Rule = (value: string, today: string) => string | null;
export interface FieldSpec {
  required: boolean;
  label: string;
  rule?: Rule;
  maxLength?: number;
}

const text = (maxLength = 100) => ({ maxLength });
const oneOf = (values: readonly string[]): Rule => (v) =>
  values.includes(v) ? null : `must be one of: ${values.join(', ')}`;
const percent: Rule = (v) => (/^\d{1,3}(\.\d{1,2})?$/.test(v) && Number(v) <= 100 ? null : RULE_PROBLEMS.percent);
const amount: Rule = (v) => {
  const minor = parseAmount(v);
  return minor !== null && minor > 0 ? null : RULE_PROBLEMS.amount;
};
const email: Rule = (v) => (isEmail(v) ? null : RULE_PROBLEMS.email);
const phone: Rule = (v) => (normalizePhone(v) ? null : RULE_PROBLEMS.phone);
const country: Rule = (v) => (isCountryCode(v) ? null : RULE_PROBLEMS.country);
const zip: Rule = (v) => (/^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$/.test(v) ? null : RULE_PROBLEMS.zip);
const pastDate: Rule = (v, today) => {
  if (!isIsoDate(v)) return RULE_PROBLEMS.establishedFormat;
  return v <= today ? null : RULE_PROBLEMS.future;
};
const birthDate: Rule = (v, today) => {
  if (!isIsoDate(v)) return RULE_PROBLEMS.birthFormat;
  const age = yearsBetween(v, today);
  if (age < 18) return RULE_PROBLEMS.underage;
  return age > 120 ? RULE_PROBLEMS.birthUnreal : null;
};

export const ONBOARDING_FIELDS = {
  BankingInfo: {
    account_number: { required: true, label: 'Account number', rule: (v) => (isValidAccountNumber(v) ? null : RULE_PROBLEMS.accountNumber) },
    bank_name: { required: true, label: 'Bank name', ...text() },
    routing_number: { required: true, label: 'Routing number', rule: (v) => (isValidRoutingNumber(v) ? null : RULE_PROBLEMS.routingNumber) },
  },
  BusinessInfo: {
    business_address: { required: true, label: 'Street address', ...text(200) },
    business_city: { required: true, label: 'City', ...text() },
    business_country: { required: true, label: 'Country', rule: country },
    business_email: { required: true, label: 'Business e-mail', rule: email },
    business_industry: { required: true, label: 'Industry', rule: oneOf(BUSINESS_INDUSTRIES) },
    business_name: { required: true, label: 'Legal business name', ...text(200) },
    business_phone: { required: true, label: 'Business phone', rule: phone },
    business_state: { required: true, label: 'State or region', ...text(50) },
    business_zip: { required: true, label: 'Postal code', rule: zip },
    dba: { required: false, label: 'Doing business as', ...text(200) },
    ein: { required: true, label: 'EIN', rule: (v) => (/^\d{2}-?\d{7}$/.test(v) ? null : RULE_PROBLEMS.ein) },
    established_date: { required: true, label: 'Date established', rule: pastDate },
    ownershiptype: { required: true, label: 'Ownership type', rule: oneOf(OWNERSHIP_TYPES) },
    website: { required: false, label: 'Website', rule: (v) => (isWebsite(v) ? null : RULE_PROBLEMS.website) },
  },
  OwnerInfo: {
    address: { required: true, label: 'Home address', ...text(200) },
    b_dl_number: { required: false, label: "Driver's licence number", rule: (v) => (/^[A-Za-z0-9-]{4,20}$/.test(v) ? null : RULE_PROBLEMS.licence) },
    b_title: { required: true, label: 'Title', ...text() },
    city: { required: true, label: 'City', ...text() },
    country: { required: true, label: 'Country', rule: country },
    date_of_birth: { required: true, label: 'Date of birth', rule: birthDate },
    email: { required: true, label: 'E-mail', rule: email },
    first_name: { required: true, label: 'First name', ...text() },
    last_name: { required: true, label: 'Last name', ...text() },
    ownership_percent: { required: true, label: 'Ownership (%)', rule: percent },
    phone: { required: true, label: 'Phone', rule: phone },
    ssn: { required: true, label: 'SSN', rule: (v) => (/^(?!000|666|9\d\d)\d{3}-?(?!00)\d{2}-?(?!0000)\d{4}$/.test(v) ? null : RULE_PROBLEMS.ssn) },
    state: { required: true, label: 'State or region', ...text(50) },
    zip: { required: true, label: 'Postal code', rule: zip },
  },
  ProcessingInfo: {
    annualCCSales: { required: true, label: 'Annual card sales', rule: amount },
    avgTicket: { required: true, label: 'Average ticket', rule: amount },
    legal_b2b: { required: true, label: 'Business-to-business (%)', rule: percent },
    legal_b2c: { required: true, label: 'Business-to-consumer (%)', rule: percent },
    legal_cnpinternet: { required: true, label: 'Card not present: internet (%)', rule: percent },
    legal_cnpphoneemail: { required: true, label: 'Card not present: phone or e-mail (%)', rule: percent },
    legal_cp: { required: true, label: 'Card present (%)', rule: percent },
    legal_percentdeliveredover30days: { required: true, label: 'Delivered after more than 30 days (%)', rule: percent },
    legal_percentdeliveredsameday: { required: true, label: 'Delivered the same day (%)', rule: percent },
    legal_productssold: { required: true, label: 'Products sold', rule: oneOf(PRODUCTS_SOLD) },
    percentdelievered7days: { required: true, label: 'Delivered within 7 days (%)', rule: percent },
    percentdelivered14days: { required: true, label: 'Delivered within 14 days (%)', rule: percent },
    processing_environment: { required: true, label: 'Processing environment', rule: oneOf(PROCESSING_ENVIRONMENTS) },
  },
} as const satisfies Record<OnboardingGroup, Record<string, FieldSpec>>;

const SPECS: Record<OnboardingGroup, Record<string, FieldSpec>> = ONBOARDING_FIELDS;

/** Percentages that describe one whole and so must add up to 100. */
const SHARES_OF_A_WHOLE: { fields: string[]; what: string }[] = [
  { fields: ['legal_b2b', 'legal_b2c'], what: 'legal_b2b and legal_b2c' },
  { fields: ['legal_cp', 'legal_cnpinternet', 'legal_cnpphoneemail'], what: 'legal_cp, legal_cnpinternet and legal_cnpphoneemail' },
  {
    fields: ['legal_percentdeliveredsameday', 'percentdelievered7days', 'percentdelivered14days', 'legal_percentdeliveredover30days'],
    what: 'the four delivery-time percentages',
  },
];

export const ONBOARDING_GROUPS = Object.keys(SPECS) as OnboardingGroup[];

/** Problems with one group's values; `partial` checks only the fields that are present (a prefill). */
function checkGroup(group: OnboardingGroup, values: Record<string, string | undefined>, today: string, partial: boolean): FieldError[] {
  const errors: FieldError[] = [];
  for (const [name, spec] of Object.entries(SPECS[group])) {
    const field = `${group}.${name}`;
    const value = values[name]?.trim() ?? '';
    if (value === '') {
      if (spec.required && !partial) errors.push({ field, message: `${field} is required (${spec.label}).` });
      continue;
    }
    if (spec.maxLength !== undefined && value.length > spec.maxLength) {
      errors.push({ field, message: `${field} must be at most ${spec.maxLength} characters.` });
      continue;
    }
    const problem = spec.rule?.(value, today);
    if (problem) errors.push({ field, message: `${field} ${problem}.` });
  }
  return errors;
}

/** Problems with the business details a client may prefill before the merchant completes the hosted form. */
export function validatePrefill(businessInfo: Record<string, string | undefined>, today: string): FieldError[] {
  return checkGroup('BusinessInfo', businessInfo, today, true);
}

/** Every problem with an onboarding application, in field order; empty when it can be accepted. */
export function validateOnboarding(application: OnboardingApplication, today: string): FieldError[] {
  const errors = ONBOARDING_GROUPS.flatMap((group) => checkGroup(group, application[group] ?? {}, today, false));
  const processing = application.ProcessingInfo ?? {};
  for (const { fields, what } of SHARES_OF_A_WHOLE) {
    if (fields.some((f) => errors.some((e) => e.field === `ProcessingInfo.${f}`))) continue;
    const total = fields.reduce((sum, f) => sum + Math.round(Number(processing[f]) * 100), 0);
    if (total !== 10000) {
      errors.push({ field: `ProcessingInfo.${fields[0]}`, message: `ProcessingInfo: ${what} must add up to 100 (they add up to ${total / 100}).` });
    }
  }
  return errors;
}

/** Only the last four digits of an SSN or bank account are kept; see docs/security.md. */
export function lastFour(digits: string): string {
  return digits.replace(/\D/g, '').slice(-4);
}
