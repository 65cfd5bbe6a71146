import {
  BUSINESS_INDUSTRIES,
  ONBOARDING_FIELDS,
  OWNERSHIP_TYPES,
  PROCESSING_ENVIRONMENTS,
  PRODUCTS_SOLD,
  type FieldSpec,
  type OnboardingGroup,
} from '../domain/onboarding.ts';

/** How one onboarding field is asked for in the hosted form; its label, hint and options' words are in i18n/. */
interface FormInput {
  type?: 'email' | 'tel' | 'date' | 'url';
  inputmode?: 'numeric' | 'decimal';
  autocomplete?: string;
  options?: readonly string[];
  /** A select of every country, named in the page's language. */
  country?: boolean;
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
  fields: FormField[];
}

const SPECS: Record<OnboardingGroup, Record<string, FieldSpec>> = ONBOARDING_FIELDS;

/** Groups in the order a merchant fills them in; fields in a natural order (any not listed follow). */
const LAYOUT: { group: OnboardingGroup; inputs: Record<string, FormInput> }[] = [
  {
    group: 'BusinessInfo',
    inputs: {
      business_name: { autocomplete: 'organization' },
      dba: {},
      ownershiptype: { options: OWNERSHIP_TYPES },
      business_industry: { options: BUSINESS_INDUSTRIES },
      ein: { inputmode: 'numeric', autocomplete: 'off' },
      established_date: { type: 'date' },
      business_email: { type: 'email', autocomplete: 'work email' },
      business_phone: { type: 'tel', autocomplete: 'work tel' },
      website: { type: 'url', autocomplete: 'url' },
      business_address: { autocomplete: 'section-business address-line1' },
      business_city: { autocomplete: 'section-business address-level2' },
      business_state: { autocomplete: 'section-business address-level1' },
      business_zip: { autocomplete: 'section-business postal-code' },
      business_country: { autocomplete: 'section-business country', country: true },
    },
  },
  {
    group: 'OwnerInfo',
    inputs: {
      first_name: { autocomplete: 'given-name' },
      last_name: { autocomplete: 'family-name' },
      b_title: { autocomplete: 'organization-title' },
      ownership_percent: { inputmode: 'decimal' },
      email: { type: 'email', autocomplete: 'email' },
      phone: { type: 'tel', autocomplete: 'tel' },
      date_of_birth: { type: 'date', autocomplete: 'bday' },
      ssn: { inputmode: 'numeric', autocomplete: 'off', secret: true },
      b_dl_number: { autocomplete: 'off' },
      address: { autocomplete: 'section-owner address-line1' },
      city: { autocomplete: 'section-owner address-level2' },
      state: { autocomplete: 'section-owner address-level1' },
      zip: { autocomplete: 'section-owner postal-code' },
      country: { autocomplete: 'section-owner country', country: true },
    },
  },
  {
    group: 'BankingInfo',
    inputs: {
      bank_name: {},
      routing_number: { inputmode: 'numeric', autocomplete: 'off' },
      account_number: { inputmode: 'numeric', autocomplete: 'off', secret: true },
    },
  },
  {
    group: 'ProcessingInfo',
    inputs: {
      processing_environment: { options: PROCESSING_ENVIRONMENTS },
      legal_productssold: { options: PRODUCTS_SOLD },
      annualCCSales: { inputmode: 'decimal' },
      avgTicket: { inputmode: 'decimal' },
      legal_b2b: { inputmode: 'decimal' },
      legal_b2c: { inputmode: 'decimal' },
      legal_cp: { inputmode: 'decimal' },
      legal_cnpinternet: { inputmode: 'decimal' },
      legal_cnpphoneemail: { inputmode: 'decimal' },
      legal_percentdeliveredsameday: { inputmode: 'decimal' },
      percentdelievered7days: { inputmode: 'decimal' },
      percentdelivered14days: { inputmode: 'decimal' },
      legal_percentdeliveredover30days: { inputmode: 'decimal' },
    },
  },
];

/** Every field of ONBOARDING_FIELDS, grouped and ordered for the form. */
export const FORM_GROUPS: FormGroup[] = LAYOUT.map(({ group, inputs }) => {
  const specs = SPECS[group];
  const names = [
    ...Object.keys(inputs).filter((name) => Object.hasOwn(specs, name)),
    ...Object.keys(specs).filter((name) => !Object.hasOwn(inputs, name)),
  ];
  return { group, fields: names.map((name) => ({ ...inputs[name], name: `${group}.${name}`, spec: specs[name]! })) };
});
