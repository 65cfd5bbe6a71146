import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  canonicalApplication,
  canonicalChoice,
  validateOnboarding,
  validatePrefill,
  lastFour,
  OWNERSHIP_TYPES,
  type OnboardingApplication,
} from '../../server/domain/onboarding.ts';
import { validateSignature } from '../../server/domain/signature.ts';
import { validApplication } from '../support/fixtures.ts';

const TODAY = '2026-11-22';
const messagesFor = (overrides: Parameters<typeof validApplication>[0]) =>
  validateOnboarding(validApplication(overrides), TODAY).map((e) => e.message);

test('a complete application has no errors', () => {
  assert.deepEqual(validateOnboarding(validApplication(), TODAY), []);
});

test('every required field is named when missing, optional ones are not, with bad values in the same list', () => {
  const errors = validateOnboarding({ BusinessInfo: { ein: '12' } } as unknown as OnboardingApplication, TODAY);
  const fields = errors.map((e) => e.field);
  const required = [
    'BankingInfo.account_number',
    'BankingInfo.routing_number',
    'BusinessInfo.business_address',
    'BusinessInfo.business_city',
    'BusinessInfo.business_country',
    'BusinessInfo.business_email',
    'BusinessInfo.business_name',
    'BusinessInfo.business_phone',
    'BusinessInfo.business_state',
    'BusinessInfo.business_zip',
    'OwnerInfo.date_of_birth',
    'OwnerInfo.email',
    'OwnerInfo.first_name',
    'OwnerInfo.last_name',
    'OwnerInfo.ssn',
  ];
  assert.deepEqual(
    fields.filter((f) => f !== 'BusinessInfo.ein').sort(),
    required,
    'what the review needs, all named at once',
  );
  assert.ok(
    errors.some((e) => e.message.startsWith('BusinessInfo.ein must be 9 digits')),
    'and the bad value beside them',
  );
  for (const optional of [
    'BankingInfo.bank_name',
    'BusinessInfo.dba',
    'BusinessInfo.ownershiptype',
    'OwnerInfo.b_dl_number',
    'ProcessingInfo.processing_environment',
  ]) {
    assert.ok(!fields.includes(optional), `${optional} is optional`);
  }
  assert.ok(
    validateOnboarding({ BusinessInfo: {} } as unknown as OnboardingApplication, TODAY).some(
      (e) => e.message === 'BusinessInfo.ein is required (EIN).',
    ),
  );
});

test('blank text counts as missing', () => {
  assert.deepEqual(messagesFor({ BusinessInfo: { business_name: '   ' } }), [
    'BusinessInfo.business_name is required (Legal business name).',
  ]);
});

test('enumerations take any case and the common spellings, and are stored as the one value', () => {
  const spellings: [string, string][] = [
    ['LLC', 'llc'],
    ['Limited Liability Company', 'llc'],
    ['l.l.c.', 'llc'],
    ['Sole Proprietor', 'sole_proprietorship'],
    ['S-Corp', 's_corporation'],
    ['Non-Profit', 'non_profit'],
  ];
  for (const [given, stored] of spellings) {
    assert.equal(canonicalChoice(OWNERSHIP_TYPES, given), stored, given);
  }
  assert.equal(canonicalChoice(OWNERSHIP_TYPES, 'trust'), null);
  const application = validApplication({
    BusinessInfo: { ownershiptype: 'LLC', business_industry: 'Retail' },
    ProcessingInfo: { processing_environment: 'Card Present', legal_productssold: 'Physical Goods' },
  });
  assert.deepEqual(validateOnboarding(application, TODAY), []);
  const stored = canonicalApplication(application);
  assert.deepEqual(
    [
      stored.BusinessInfo.ownershiptype,
      stored.BusinessInfo.business_industry,
      stored.ProcessingInfo.processing_environment,
      stored.ProcessingInfo.legal_productssold,
    ],
    ['llc', 'retail', 'card_present', 'physical_goods'],
  );
});

test('the processing percentages are optional, but a share of a whole is given whole', () => {
  const none = validApplication();
  for (const field of [
    'legal_b2b',
    'legal_b2c',
    'legal_cp',
    'legal_cnpinternet',
    'legal_cnpphoneemail',
    'legal_percentdeliveredsameday',
    'percentdelievered7days',
    'percentdelivered14days',
    'legal_percentdeliveredover30days',
  ]) {
    delete none.ProcessingInfo[field];
  }
  assert.deepEqual(validateOnboarding(none, TODAY), []);
  delete none.ProcessingInfo.legal_b2b;
  none.ProcessingInfo.legal_b2c = '100';
  assert.deepEqual(
    validateOnboarding(none, TODAY).map((e) => e.message),
    ['ProcessingInfo: give all of legal_b2b and legal_b2c, or none.'],
  );
});

const rejected: [string, Parameters<typeof validApplication>[0], string][] = [
  [
    'routing checksum',
    { BankingInfo: { routing_number: '110000001' } },
    'BankingInfo.routing_number must be a nine-digit ABA routing number',
  ],
  ['account digits', { BankingInfo: { account_number: '12ab' } }, 'BankingInfo.account_number must be 4 to 17 digits.'],
  [
    'country code',
    { BusinessInfo: { business_country: 'USA' } },
    'BusinessInfo.business_country must be a two-letter country code',
  ],
  ['unknown country', { OwnerInfo: { country: 'ZZ' } }, 'OwnerInfo.country must be a two-letter country code'],
  ['e-mail', { BusinessInfo: { business_email: 'owner@' } }, 'BusinessInfo.business_email must be an e-mail address'],
  ['phone', { OwnerInfo: { phone: '12345' } }, 'OwnerInfo.phone must be a phone number'],
  [
    'industry enum',
    { BusinessInfo: { business_industry: 'casino' } },
    'BusinessInfo.business_industry must be one of: retail,',
  ],
  [
    'ownership enum',
    { BusinessInfo: { ownershiptype: 'trust' } },
    'BusinessInfo.ownershiptype must be one of: sole_proprietorship',
  ],
  [
    'environment enum',
    { ProcessingInfo: { processing_environment: 'atm' } },
    'ProcessingInfo.processing_environment must be one of: card_present',
  ],
  [
    'products enum',
    { ProcessingInfo: { legal_productssold: 'guns' } },
    'ProcessingInfo.legal_productssold must be one of: physical_goods',
  ],
  ['ein', { BusinessInfo: { ein: '1234' } }, 'BusinessInfo.ein must be 9 digits'],
  ['ssn', { OwnerInfo: { ssn: '000-12-3456' } }, 'OwnerInfo.ssn must be a valid nine-digit SSN'],
  [
    'calendar date',
    { BusinessInfo: { established_date: '2021-02-30' } },
    'BusinessInfo.established_date must be a date written YYYY-MM-DD',
  ],
  [
    'future date',
    { BusinessInfo: { established_date: '2027-01-01' } },
    'BusinessInfo.established_date must not be in the future.',
  ],
  [
    'minor owner',
    { OwnerInfo: { date_of_birth: '2010-01-01' } },
    'OwnerInfo.date_of_birth must be the date of birth of an owner at least 18',
  ],
  [
    'percent range',
    { OwnerInfo: { ownership_percent: '101' } },
    'OwnerInfo.ownership_percent must be a number from 0 to 100',
  ],
  [
    'percent text',
    { OwnerInfo: { ownership_percent: 'half' } },
    'OwnerInfo.ownership_percent must be a number from 0 to 100',
  ],
  ['amount', { ProcessingInfo: { avgTicket: '12.505' } }, 'ProcessingInfo.avgTicket must be a positive amount'],
  ['zero amount', { ProcessingInfo: { annualCCSales: '0' } }, 'ProcessingInfo.annualCCSales must be a positive amount'],
  ['website', { BusinessInfo: { website: 'ftp://x.example' } }, 'BusinessInfo.website must be a web address'],
  [
    'length',
    { BusinessInfo: { business_name: 'x'.repeat(201) } },
    'BusinessInfo.business_name must be at most 200 characters.',
  ],
  [
    'b2b + b2c',
    { ProcessingInfo: { legal_b2b: '10' } },
    'ProcessingInfo: legal_b2b and legal_b2c must add up to 100 (they add up to 110).',
  ],
  [
    'card mix',
    { ProcessingInfo: { legal_cp: '50' } },
    'ProcessingInfo: legal_cp, legal_cnpinternet and legal_cnpphoneemail must add up to 100',
  ],
  [
    'delivery mix',
    { ProcessingInfo: { percentdelivered14days: '5' } },
    'ProcessingInfo: the four delivery-time percentages must add up to 100',
  ],
];

for (const [name, overrides, expected] of rejected) {
  test(`rejects a bad ${name}`, () => {
    const messages = messagesFor(overrides);
    assert.equal(messages.length, 1, messages.join(' | '));
    assert.ok(messages[0]!.startsWith(expected), `${messages[0]} should start with ${expected}`);
  });
}

test('accepts written variants: dashless EIN and SSN, ten-digit phones, an 18-year-old owner', () => {
  assert.deepEqual(
    messagesFor({
      BusinessInfo: { ein: '123456789' },
      OwnerInfo: { ssn: '123456789', phone: '(415) 555-0101', date_of_birth: '2008-11-22' },
    }),
    [],
  );
});

test('a prefill checks only what it holds', () => {
  assert.deepEqual(validatePrefill({ business_name: 'Cafe' }, TODAY), []);
  assert.deepEqual(
    validatePrefill({ business_email: 'nope' }, TODAY).map((e) => e.field),
    ['BusinessInfo.business_email'],
  );
});

test('the signature needs consent and a full name', () => {
  assert.deepEqual(validateSignature({ signerName: 'Jane Doe', agreed: true }), []);
  assert.deepEqual(validateSignature({ signerName: 'Jane', agreed: false }), [
    'Tick the box to accept the merchant agreement.',
    'Sign with your full name, first and last, e.g. "Jane Doe".',
  ]);
});

test('only the last four digits are kept of sensitive numbers', () => {
  assert.equal(lastFour('123-45-6789'), '6789');
});
