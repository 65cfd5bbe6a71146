import type { OnboardingApplication } from '../../server/domain/onboarding.ts';
import type { OnboardingApplication as PartnerApplication } from '../../client/index.ts';

/** A complete, valid onboarding application, written as a partner writes it against paykit/client's type. */
const VALID_APPLICATION = {
  BankingInfo: { account_number: '000123456789', bank_name: 'First Sandbox Bank', routing_number: '110000000' },
  BusinessInfo: {
    business_address: '1 Market St',
    business_city: 'San Francisco',
    business_country: 'US',
    business_email: 'owner@blue-bottle.example',
    business_industry: 'restaurant',
    business_name: 'Blue Bottle Cafe',
    business_phone: '+14155550100',
    business_state: 'CA',
    business_zip: '94105',
    dba: 'Blue Bottle',
    ein: '12-3456789',
    established_date: '2015-03-01',
    ownershiptype: 'llc',
    website: 'https://blue-bottle.example',
  },
  OwnerInfo: {
    address: '2 Mission St',
    b_dl_number: 'D1234567',
    b_title: 'Owner',
    city: 'San Francisco',
    country: 'US',
    date_of_birth: '1980-05-17',
    email: 'jane@blue-bottle.example',
    first_name: 'Jane',
    last_name: 'Doe',
    ownership_percent: '100',
    phone: '4155550101',
    ssn: '123-45-6789',
    state: 'CA',
    zip: '94105',
  },
  ProcessingInfo: {
    annualCCSales: '250000.00',
    avgTicket: '12.50',
    legal_b2b: '0',
    legal_b2c: '100',
    legal_cnpinternet: '20',
    legal_cnpphoneemail: '0',
    legal_cp: '80',
    legal_percentdeliveredover30days: '0',
    legal_percentdeliveredsameday: '100',
    legal_productssold: 'physical_goods',
    percentdelievered7days: '0',
    percentdelivered14days: '0',
    processing_environment: 'mixed',
  },
} satisfies PartnerApplication;

/** The application as paykit/client takes it (a fresh copy). */
export function partnerApplication(): PartnerApplication {
  return structuredClone(VALID_APPLICATION);
}

/** A complete, valid onboarding application; override any group's fields (`undefined` blanks one, for the negative tests). */
export function validApplication(
  overrides: Partial<Record<keyof OnboardingApplication, Record<string, string | undefined>>> = {},
) {
  const application = structuredClone(VALID_APPLICATION);
  for (const [group, fields] of Object.entries(overrides)) {
    Object.assign(application[group as keyof typeof application], fields);
  }
  return application as OnboardingApplication;
}
