import {
  BUSINESS_INDUSTRIES, ONBOARDING_FIELDS, OWNERSHIP_TYPES, PROCESSING_ENVIRONMENTS, PRODUCTS_SOLD,
  type FieldSpec, type OnboardingGroup,
} from '../domain/onboarding.ts';

/** How one onboarding field is asked for in the hosted form. */
export interface FormInput {
  type?: 'email' | 'tel' | 'date' | 'url';
  inputmode?: 'numeric' | 'decimal';
  autocomplete?: string;
  options?: readonly string[];
  hint?: string;
  /** Never written back into the page: the merchant types it again after an error. */
  secret?: boolean;
}

export interface FormField extends FormInput {
  /** `Group.field`, the input's name. */
  name: string;
  spec: FieldSpec;
}

export interface FormGroup {
  group: OnboardingGroup;
  legend: string;
  fields: FormField[];
}

const SPECS: Record<OnboardingGroup, Record<string, FieldSpec>> = ONBOARDING_FIELDS;

const B2 = 'Business-to-business and business-to-consumer add up to 100.';
const CARD = 'Card present, internet, and phone or e-mail add up to 100.';
const DELIVERY = 'The four delivery times add up to 100.';
const COUNTRY = 'Two-letter country code, e.g. US.';
const PHONE = 'With the country code, e.g. +1 415 555 0123, or ten digits.';

/** Groups in the order a merchant fills them in; fields in a natural order (any not listed follow). */
const LAYOUT: { group: OnboardingGroup; legend: string; inputs: Record<string, FormInput> }[] = [
  {
    group: 'BusinessInfo',
    legend: 'Your business',
    inputs: {
      business_name: { autocomplete: 'organization' },
      dba: { hint: 'The name customers know you by, if it differs from the legal name.' },
      ownershiptype: { options: OWNERSHIP_TYPES },
      business_industry: { options: BUSINESS_INDUSTRIES },
      ein: { inputmode: 'numeric', autocomplete: 'off', hint: 'Employer Identification Number: 9 digits, e.g. 12-3456789.' },
      established_date: { type: 'date' },
      business_email: { type: 'email', autocomplete: 'work email' },
      business_phone: { type: 'tel', autocomplete: 'work tel', hint: PHONE },
      website: { type: 'url', autocomplete: 'url', hint: 'Starts with https://' },
      business_address: { autocomplete: 'section-business address-line1' },
      business_city: { autocomplete: 'section-business address-level2' },
      business_state: { autocomplete: 'section-business address-level1' },
      business_zip: { autocomplete: 'section-business postal-code' },
      business_country: { autocomplete: 'section-business country', hint: COUNTRY },
    },
  },
  {
    group: 'OwnerInfo',
    legend: 'Business owner',
    inputs: {
      first_name: { autocomplete: 'given-name' },
      last_name: { autocomplete: 'family-name' },
      b_title: { autocomplete: 'organization-title', hint: 'Your role in the business, e.g. Owner or CEO.' },
      ownership_percent: { inputmode: 'decimal', hint: 'The share of the business you own, from 0 to 100.' },
      email: { type: 'email', autocomplete: 'email' },
      phone: { type: 'tel', autocomplete: 'tel', hint: PHONE },
      date_of_birth: { type: 'date', autocomplete: 'bday', hint: 'Owners must be at least 18.' },
      ssn: { inputmode: 'numeric', autocomplete: 'off', secret: true, hint: 'Social Security number: 9 digits. Only the last four are kept.' },
      b_dl_number: { autocomplete: 'off', hint: '4 to 20 letters or digits.' },
      address: { autocomplete: 'section-owner address-line1' },
      city: { autocomplete: 'section-owner address-level2' },
      state: { autocomplete: 'section-owner address-level1' },
      zip: { autocomplete: 'section-owner postal-code' },
      country: { autocomplete: 'section-owner country', hint: COUNTRY },
    },
  },
  {
    group: 'BankingInfo',
    legend: 'Bank account for payouts',
    inputs: {
      bank_name: {},
      routing_number: { inputmode: 'numeric', autocomplete: 'off', hint: 'The 9-digit ABA routing number, e.g. 110000000.' },
      account_number: { inputmode: 'numeric', autocomplete: 'off', secret: true, hint: '4 to 17 digits. Only the last four are kept.' },
    },
  },
  {
    group: 'ProcessingInfo',
    legend: 'How you take payments',
    inputs: {
      processing_environment: { options: PROCESSING_ENVIRONMENTS },
      legal_productssold: { options: PRODUCTS_SOLD },
      annualCCSales: { inputmode: 'decimal', hint: 'In US dollars, e.g. 250000.00.' },
      avgTicket: { inputmode: 'decimal', hint: 'The usual amount of one sale in US dollars, e.g. 45.00.' },
      legal_b2b: { inputmode: 'decimal', hint: B2 },
      legal_b2c: { inputmode: 'decimal', hint: B2 },
      legal_cp: { inputmode: 'decimal', hint: CARD },
      legal_cnpinternet: { inputmode: 'decimal', hint: CARD },
      legal_cnpphoneemail: { inputmode: 'decimal', hint: CARD },
      legal_percentdeliveredsameday: { inputmode: 'decimal', hint: DELIVERY },
      percentdelievered7days: { inputmode: 'decimal', hint: DELIVERY },
      percentdelivered14days: { inputmode: 'decimal', hint: DELIVERY },
      legal_percentdeliveredover30days: { inputmode: 'decimal', hint: DELIVERY },
    },
  },
];

/** Every field of ONBOARDING_FIELDS, grouped and ordered for the form. */
export const FORM_GROUPS: FormGroup[] = LAYOUT.map(({ group, legend, inputs }) => {
  const specs = SPECS[group];
  const names = [...Object.keys(inputs).filter((name) => Object.hasOwn(specs, name)), ...Object.keys(specs).filter((name) => !Object.hasOwn(inputs, name))];
  return { group, legend, fields: names.map((name) => ({ ...inputs[name], name: `${group}.${name}`, spec: specs[name]! })) };
});

const OPTION_LABELS: Record<string, string> = {
  llc: 'LLC',
  s_corporation: 'S corporation',
  non_profit: 'Non-profit',
  nonprofit: 'Non-profit',
  ecommerce: 'E-commerce',
  moto: 'Mail or telephone order (MOTO)',
};

export function optionLabel(value: string): string {
  const words = OPTION_LABELS[value] ?? value.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The domain's message, with field names (`BusinessInfo.ein`, `legal_b2b`) replaced by the labels the merchant sees. */
export function readableMessage(field: string, message: string): string {
  const [group, name] = field.split('.') as [OnboardingGroup, string | undefined];
  const specs = SPECS[group];
  if (!specs || name === undefined || !Object.hasOwn(specs, name)) return message;
  const label = specs[name]!.label;
  if (message === `${field} is required (${label}).`) return `${label} is required.`;
  if (message.startsWith(`${field} `)) return `${label} ${message.slice(field.length + 1)}`;
  if (!message.startsWith(`${group}: `)) return message;
  // A rule across several fields, e.g. "ProcessingInfo: legal_b2b and legal_b2c must add up to 100 (…)".
  const names = new RegExp(`\\b(${Object.keys(specs).join('|')})\\b`, 'g');
  return message.slice(group.length + 2).replace(names, (found) => specs[found]?.label ?? found);
}
