import { isValidAccountNumber, isValidRoutingNumber } from './routing-number.ts';
import { isCountryCode, isEmail, isWebsite } from './contact.ts';
import { normalizePhone } from '../../rules/phone.ts';
import { isIsoDate, yearsBetween } from './calendar.ts';
import { parseAmount } from './money.ts';

/** Allowed values of the enumerated onboarding fields (the interface leaves them open; docs/onboarding.md). */
export const OWNERSHIP_TYPES = [
  'sole_proprietorship',
  'partnership',
  'llc',
  'corporation',
  's_corporation',
  'non_profit',
  'government',
] as const;
export const BUSINESS_INDUSTRIES = [
  'retail',
  'restaurant',
  'ecommerce',
  'professional_services',
  'healthcare',
  'education',
  'hospitality',
  'travel',
  'automotive',
  'home_services',
  'personal_care',
  'nonprofit',
  'other',
] as const;
export const PROCESSING_ENVIRONMENTS = ['card_present', 'ecommerce', 'moto', 'mixed'] as const;
export const PRODUCTS_SOLD = ['physical_goods', 'digital_goods', 'services', 'subscriptions', 'mixed'] as const;

/**
 * Other spellings partners send for the enumerated values (after lower-casing and turning spaces, dots and dashes
 * into underscores): `LLC`, `Limited Liability Company`, `Sole Proprietor`, `Retail`, `E-commerce`, `Card Present`…
 */
const ALIASES: Record<string, string> = {
  sole_proprietor: 'sole_proprietorship',
  sole_prop: 'sole_proprietorship',
  individual: 'sole_proprietorship',
  general_partnership: 'partnership',
  limited_partnership: 'partnership',
  lp: 'partnership',
  llp: 'partnership',
  limited_liability_company: 'llc',
  l_l_c: 'llc',
  corp: 'corporation',
  c_corp: 'corporation',
  c_corporation: 'corporation',
  inc: 'corporation',
  incorporated: 'corporation',
  s_corp: 's_corporation',
  scorp: 's_corporation',
  s_corporation: 's_corporation',
  nonprofit: 'non_profit',
  not_for_profit: 'non_profit',
  '501c3': 'non_profit',
  charity: 'non_profit',
  govt: 'government',
  public_sector: 'government',
  retail_store: 'retail',
  retail_stores: 'retail',
  restaurants: 'restaurant',
  food_and_beverage: 'restaurant',
  'food_&_beverage': 'restaurant',
  e_commerce: 'ecommerce',
  online: 'ecommerce',
  online_retail: 'ecommerce',
  internet: 'ecommerce',
  professional_service: 'professional_services',
  consulting: 'professional_services',
  health_care: 'healthcare',
  medical: 'healthcare',
  hotel: 'hospitality',
  lodging: 'hospitality',
  auto: 'automotive',
  home_service: 'home_services',
  beauty: 'personal_care',
  salon: 'personal_care',
  spa: 'personal_care',
  card_present_retail: 'card_present',
  in_person: 'card_present',
  pos: 'card_present',
  point_of_sale: 'card_present',
  card_not_present: 'ecommerce',
  mail_order: 'moto',
  telephone_order: 'moto',
  mail_telephone_order: 'moto',
  both: 'mixed',
  omnichannel: 'mixed',
  physical: 'physical_goods',
  goods: 'physical_goods',
  products: 'physical_goods',
  digital: 'digital_goods',
  service: 'services',
  subscription: 'subscriptions',
  recurring: 'subscriptions',
};

/** The value of an enumerated field as stored, whatever case or common spelling it came in; null when none fits. */
export function canonicalChoice(values: readonly string[], given: string): string | null {
  const key = given
    .trim()
    .toLowerCase()
    .replace(/[\s./-]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const candidate = values.includes(key) ? key : ALIASES[key];
  return candidate !== undefined && values.includes(candidate) ? candidate : null;
}

export type OnboardingGroup = 'BankingInfo' | 'BusinessInfo' | 'OwnerInfo' | 'ProcessingInfo';
export type OnboardingApplication = Record<OnboardingGroup, Record<string, string | undefined>>;
export interface FieldError {
  /** `Group.field`, e.g. `BusinessInfo.ein`. */
  field: string;
  message: string;
}

/**
 * What a rule says is wrong with a value, after the field's name (`BusinessInfo.ein must be 9 digits…`). Named, so
 * that the hosted form can say the same in the merchant's language (server/views/i18n/).
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
  /** For an enumerated field: the values it stores (any case and the common spellings are accepted). */
  choices?: readonly string[];
}

const text = (maxLength = 100) => ({ maxLength });
const oneOf = (values: readonly string[]) => ({
  choices: values,
  rule: ((v) => (canonicalChoice(values, v) ? null : `must be one of: ${values.join(', ')}`)) as Rule,
});
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
    account_number: {
      required: true,
      label: 'Account number',
      rule: (v) => (isValidAccountNumber(v) ? null : RULE_PROBLEMS.accountNumber),
    },
    bank_name: { required: false, label: 'Bank name', ...text() },
    routing_number: {
      required: true,
      label: 'Routing number',
      rule: (v) => (isValidRoutingNumber(v) ? null : RULE_PROBLEMS.routingNumber),
    },
  },
  BusinessInfo: {
    business_address: { required: true, label: 'Street address', ...text(200) },
    business_city: { required: true, label: 'City', ...text() },
    business_country: { required: true, label: 'Country', rule: country },
    business_email: { required: true, label: 'Business e-mail', rule: email },
    business_industry: { required: false, label: 'Industry', ...oneOf(BUSINESS_INDUSTRIES) },
    business_name: { required: true, label: 'Legal business name', ...text(200) },
    business_phone: { required: true, label: 'Business phone', rule: phone },
    business_state: { required: true, label: 'State or region', ...text(50) },
    business_zip: { required: true, label: 'Postal code', rule: zip },
    dba: { required: false, label: 'Doing business as', ...text(200) },
    ein: { required: true, label: 'EIN', rule: (v) => (/^\d{2}-?\d{7}$/.test(v) ? null : RULE_PROBLEMS.ein) },
    established_date: { required: false, label: 'Date established', rule: pastDate },
    ownershiptype: { required: false, label: 'Ownership type', ...oneOf(OWNERSHIP_TYPES) },
    website: { required: false, label: 'Website', rule: (v) => (isWebsite(v) ? null : RULE_PROBLEMS.website) },
  },
  OwnerInfo: {
    address: { required: false, label: 'Home address', ...text(200) },
    b_dl_number: {
      required: false,
      label: "Driver's licence number",
      rule: (v) => (/^[A-Za-z0-9-]{4,20}$/.test(v) ? null : RULE_PROBLEMS.licence),
    },
    b_title: { required: false, label: 'Title', ...text() },
    city: { required: false, label: 'City', ...text() },
    country: { required: false, label: 'Country', rule: country },
    date_of_birth: { required: true, label: 'Date of birth', rule: birthDate },
    email: { required: true, label: 'E-mail', rule: email },
    first_name: { required: true, label: 'First name', ...text() },
    last_name: { required: true, label: 'Last name', ...text() },
    ownership_percent: { required: false, label: 'Ownership (%)', rule: percent },
    phone: { required: false, label: 'Phone', rule: phone },
    ssn: {
      required: true,
      label: 'SSN',
      rule: (v) => (/^(?!000|666|9\d\d)\d{3}-?(?!00)\d{2}-?(?!0000)\d{4}$/.test(v) ? null : RULE_PROBLEMS.ssn),
    },
    state: { required: false, label: 'State or region', ...text(50) },
    zip: { required: false, label: 'Postal code', rule: zip },
  },
  ProcessingInfo: {
    annualCCSales: { required: false, label: 'Annual card sales', rule: amount },
    avgTicket: { required: false, label: 'Average ticket', rule: amount },
    legal_b2b: { required: false, label: 'Business-to-business (%)', rule: percent },
    legal_b2c: { required: false, label: 'Business-to-consumer (%)', rule: percent },
    legal_cnpinternet: { required: false, label: 'Card not present: internet (%)', rule: percent },
    legal_cnpphoneemail: { required: false, label: 'Card not present: phone or e-mail (%)', rule: percent },
    legal_cp: { required: false, label: 'Card present (%)', rule: percent },
    legal_percentdeliveredover30days: {
      required: false,
      label: 'Delivered after more than 30 days (%)',
      rule: percent,
    },
    legal_percentdeliveredsameday: { required: false, label: 'Delivered the same day (%)', rule: percent },
    legal_productssold: { required: false, label: 'Products sold', ...oneOf(PRODUCTS_SOLD) },
    percentdelievered7days: { required: false, label: 'Delivered within 7 days (%)', rule: percent },
    percentdelivered14days: { required: false, label: 'Delivered within 14 days (%)', rule: percent },
    processing_environment: { required: false, label: 'Processing environment', ...oneOf(PROCESSING_ENVIRONMENTS) },
  },
} as const satisfies Record<OnboardingGroup, Record<string, FieldSpec>>;

const SPECS: Record<OnboardingGroup, Record<string, FieldSpec>> = ONBOARDING_FIELDS;

/** Percentages that describe one whole and so must add up to 100. */
const SHARES_OF_A_WHOLE: { fields: string[]; what: string }[] = [
  { fields: ['legal_b2b', 'legal_b2c'], what: 'legal_b2b and legal_b2c' },
  {
    fields: ['legal_cp', 'legal_cnpinternet', 'legal_cnpphoneemail'],
    what: 'legal_cp, legal_cnpinternet and legal_cnpphoneemail',
  },
  {
    fields: [
      'legal_percentdeliveredsameday',
      'percentdelievered7days',
      'percentdelivered14days',
      'legal_percentdeliveredover30days',
    ],
    what: 'the four delivery-time percentages',
  },
];

export const ONBOARDING_GROUPS = Object.keys(SPECS) as OnboardingGroup[];

/**
 * Problems with one group's values; `partial` checks only the fields that are present (a prefill). A field in `kept`
 * was checked when the merchant gave it and only its last four digits are kept (docs/decisions.md): left empty, it
 * stands.
 */
function checkGroup(
  group: OnboardingGroup,
  values: Record<string, string | undefined>,
  today: string,
  partial: boolean,
  kept: ReadonlySet<string> = new Set(),
): FieldError[] {
  const errors: FieldError[] = [];
  for (const [name, spec] of Object.entries(SPECS[group])) {
    const field = `${group}.${name}`;
    const value = values[name]?.trim() ?? '';
    if (value === '') {
      if (spec.required && !partial && !kept.has(field))
        errors.push({ field, message: `${field} is required (${spec.label}).` });
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

/** The rules across several percentages of ProcessingInfo, for fields that are each valid on their own. */
function checkShares(processing: Record<string, string | undefined>, fieldErrors: FieldError[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const { fields, what } of SHARES_OF_A_WHOLE) {
    if (fields.some((f) => fieldErrors.some((e) => e.field === `ProcessingInfo.${f}`))) continue;
    const given = fields.filter((f) => (processing[f]?.trim() ?? '') !== '');
    if (given.length === 0) continue;
    if (given.length < fields.length) {
      errors.push({
        field: `ProcessingInfo.${fields.find((f) => !given.includes(f))}`,
        message: `ProcessingInfo: give all of ${what}, or none.`,
      });
      continue;
    }
    const total = fields.reduce((sum, f) => sum + Math.round(Number(processing[f]) * 100), 0);
    if (total !== 10000) {
      errors.push({
        field: `ProcessingInfo.${fields[0]}`,
        message: `ProcessingInfo: ${what} must add up to 100 (they add up to ${total / 100}).`,
      });
    }
  }
  return errors;
}

/** Every problem with one group of an application, as the hosted form checks a step when the merchant leaves it. */
export function validateGroup(
  group: OnboardingGroup,
  values: Record<string, string | undefined>,
  today: string,
  kept: ReadonlySet<string> = new Set(),
): FieldError[] {
  const errors = checkGroup(group, values, today, false, kept);
  return group === 'ProcessingInfo' ? [...errors, ...checkShares(values, errors)] : errors;
}

/** Problems with the business details a client may prefill before the merchant completes the hosted form. */
export function validatePrefill(businessInfo: Record<string, string | undefined>, today: string): FieldError[] {
  return checkGroup('BusinessInfo', businessInfo, today, true);
}

/**
 * Every problem with an onboarding application, in field order; empty when it can be accepted. `kept`: fields
 * checked earlier of which only the last four digits are kept (a hosted form's saved steps).
 */
export function validateOnboarding(
  application: OnboardingApplication,
  today: string,
  kept: ReadonlySet<string> = new Set(),
): FieldError[] {
  return ONBOARDING_GROUPS.flatMap((group) => validateGroup(group, application[group] ?? {}, today, kept));
}

/** The application as kept: enumerated fields in their stored spelling (`LLC` → `llc`). Valid input only. */
export function canonicalApplication(application: OnboardingApplication): OnboardingApplication {
  return Object.fromEntries(
    ONBOARDING_GROUPS.map((group) => {
      const values = { ...(application[group] ?? {}) };
      for (const [name, spec] of Object.entries(SPECS[group])) {
        const value = values[name]?.trim();
        if (spec.choices && value) values[name] = canonicalChoice(spec.choices, value) ?? value;
      }
      return [group, values];
    }),
  ) as OnboardingApplication;
}

/** Only the last four digits of an SSN or bank account are kept; see docs/security.md. */
export function lastFour(digits: string): string {
  return digits.replace(/\D/g, '').slice(-4);
}
