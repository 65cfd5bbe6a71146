/**
 * The hosted pages' texts in English: the source of every other language's (es.ts, fr.ts, de.ts must have the same
 * keys, which PageTexts enforces). What the service itself says (a refused card, a field's rule) is its own words,
 * taken from where it says them.
 */
import { CARD_PROBLEMS, DECLINE_MESSAGES } from '../../domain/test-cards.ts';
import {
  BUSINESS_INDUSTRIES,
  ONBOARDING_FIELDS,
  OWNERSHIP_TYPES,
  PROCESSING_ENVIRONMENTS,
  PRODUCTS_SOLD,
  RULE_PROBLEMS,
  type OnboardingGroup,
} from '../../domain/onboarding.ts';
import { SIGNATURE_PROBLEMS } from '../../domain/signature.ts';
import { LINK_PROBLEMS } from '../../domain/pay-links.ts';
import { PAYMENT_PROBLEMS } from '../../domain/payment-problems.ts';

/** `BusinessInfo.ein` and the like: every field of the onboarding form. */
export type FieldName = {
  [G in OnboardingGroup]: `${G}.${keyof (typeof ONBOARDING_FIELDS)[G] & string}`;
}[OnboardingGroup];

/** Every value of the form's enumerated fields. */
export type OptionValue = (
  typeof OWNERSHIP_TYPES | typeof BUSINESS_INDUSTRIES | typeof PROCESSING_ENVIRONMENTS | typeof PRODUCTS_SOLD
)[number];

/** The same shape with any words: every language fills in every key. */
type Texts<T> = {
  [K in keyof T]: T[K] extends string ? string : T[K] extends readonly string[] ? readonly string[] : Texts<T[K]>;
};

const labels = Object.fromEntries(
  Object.entries(ONBOARDING_FIELDS).flatMap(([group, fields]) =>
    Object.entries(fields).map(([name, spec]) => [`${group}.${name}`, spec.label]),
  ),
) as Record<FieldName, string>;

const SPECIAL_OPTIONS: Partial<Record<OptionValue, string>> = {
  llc: 'LLC',
  s_corporation: 'S corporation',
  non_profit: 'Non-profit',
  nonprofit: 'Non-profit',
  ecommerce: 'E-commerce',
  moto: 'Mail or telephone order (MOTO)',
};
const options = Object.fromEntries(
  [...OWNERSHIP_TYPES, ...BUSINESS_INDUSTRIES, ...PROCESSING_ENVIRONMENTS, ...PRODUCTS_SOLD].map((value) => {
    const words = SPECIAL_OPTIONS[value] ?? value.replaceAll('_', ' ');
    return [value, words.charAt(0).toUpperCase() + words.slice(1)];
  }),
) as Record<OptionValue, string>;

/** The hints of the percentage fields, in three groups that each add up to 100; the same fields in every language. */
export function percentageHints({ b2, card, delivery }: { b2: string; card: string; delivery: string }) {
  return {
    'ProcessingInfo.legal_b2b': b2,
    'ProcessingInfo.legal_b2c': b2,
    'ProcessingInfo.legal_cp': card,
    'ProcessingInfo.legal_cnpinternet': card,
    'ProcessingInfo.legal_cnpphoneemail': card,
    'ProcessingInfo.legal_percentdeliveredsameday': delivery,
    'ProcessingInfo.percentdelievered7days': delivery,
    'ProcessingInfo.percentdelivered14days': delivery,
    'ProcessingInfo.legal_percentdeliveredover30days': delivery,
  } satisfies Partial<Record<FieldName, string>>;
}

const B2 = 'Business-to-business and business-to-consumer add up to 100.';
const CARD = 'Card present, internet, and phone or e-mail add up to 100.';
const DELIVERY = 'The four delivery times add up to 100.';
const PHONE = 'With the country code, e.g. +1 415 555 0123, or ten digits.';

export const en = {
  pay: {
    title: 'Pay {merchant}',
    optional: '(optional)',
    cardLegend: 'Pay by card',
    cardName: 'Name on card',
    receiptEmail: 'E-mail for a receipt',
    receiptEmailHint: 'Optional: your receipt goes there.',
    receiptEmailInvalid: 'Enter an e-mail address such as name@example.com, or leave it empty.',
    cardNumber: 'Card number',
    cardNumberHint: 'The long number on the front of your card.',
    expiry: 'Expiry date (MM / YY)',
    expiryHint: 'As printed on the card, e.g. 04 / 29.',
    cvc: 'Security code (CVC)',
    cvcHint: '3 digits on the back; 4 on the front for American Express.',
    reenter: 'For your security, type it again: we never send it back to your browser.',
    achLegend: 'Pay from a bank account (ACH)',
    achHint: 'Bank payments take a few business days to clear.',
    achName: 'Account holder name',
    routing: 'Routing number',
    routingHint: '9 digits, printed at the bottom left of a check.',
    account: 'Account number',
    accountHint: '4 to 17 digits.',
    authorize: 'Authorize {total}',
    payByCard: 'Pay {total} by card',
    payFromBank: 'Pay {total} from bank account',
    problemTitle: 'The payment did not go through',
    preauth: 'Your card will be {held}: {merchant} charges it later.',
    held: 'authorized (held), not charged',
    sandboxTitle: 'Sandbox test details',
    sandboxNote: 'This is the sandbox: no real money moves.',
    testApproves: '{card} approves',
    testDeclined: '{card} is declined',
    testNoFunds: '{card} is declined for insufficient funds',
    testChallenge: '{card} asks for 3-D Secure',
    testAnyExpiry: 'Use any future expiry date and any 3-digit security code.',
    testAch: 'Bank account: routing number {routing} with any 4 to 17 digit account number.',
    chooseMethod: 'Choose how to pay: by card or from a bank account.',
    expiryFormat: 'Enter the expiry date as MM / YY, e.g. 04 / 29.',
    cardNumberMissing: 'Enter the card number.',
    cvcMissing: 'Enter the security code.',
    methodLegend: 'Pay with',
    methodCard: 'Card',
    methodBank: 'Bank account',
    orderDetails: 'Order details',
    total: 'Total {total}',
    declinedNext: 'Nothing was charged. Check the details below, then try again with another card.',
    declinedNextOrBank:
      'Nothing was charged. Check the details below, then try again with another card or choose Bank account.',
    declinedNextBank: 'Nothing was charged. Check the bank details below and try again.',
  },
  summary: {
    merchant: 'Merchant',
    description: 'Description',
    order: 'Order',
    invoice: 'Invoice',
    amountDue: 'Amount due',
    amount: 'Amount',
    discount: 'Discount',
    surcharge: 'Surcharge',
    tax: 'Tax',
    subtotal: 'Subtotal',
    total: 'Total',
    cardFee: 'Card processing fee',
    achFee: 'Bank (ACH) processing fee',
    totalByCard: 'Total by card',
    totalByAch: 'Total by bank account (ACH)',
    transaction: 'Transaction',
  },
  outcome: {
    approvedTitle: 'Payment successful',
    authorizedTitle: 'Card authorized',
    paid: 'Thank you: you paid {amount} to {merchant}.',
    held: '{amount} is held on your card for {merchant}. You are charged only when {merchant} takes the payment.',
    keepNumber: 'Keep the transaction number for your records. You can close this page.',
    pendingTitle: 'Payment submitted',
    pending:
      'Payment submitted: bank payments take a few days to clear. {merchant} sees the payment once your bank confirms it.',
    closePage: 'You can close this page.',
    declinedTitle: 'Payment declined',
    challengeTitle: 'Confirm this payment',
    challenge: 'Your bank asks you to confirm this payment of {amount} to {merchant} (3-D Secure).',
    challengeSandbox:
      "Sandbox: this step stands in for your bank's check. Choose Pass to approve the payment or Fail to see it declined.",
    pass: 'Pass',
    fail: 'Fail',
    unknownTitle: 'Pay link not found',
    unknownAdvice: 'Check that you opened the whole link from your message, or ask the merchant for a new one.',
    paidTitle: 'Already paid',
    paidAdvice: 'There is nothing more to pay on this link. If you think this is wrong, contact the merchant.',
    expiredTitle: 'Pay link expired',
    expiredAdvice: 'Nothing was charged.',
  },
  linkProblems: LINK_PROBLEMS,
  declines: DECLINE_MESSAGES,
  cardProblems: CARD_PROBLEMS,
  paymentProblems: PAYMENT_PROBLEMS,
  onboarding: {
    steps: {
      business: 'Business',
      owner: 'Owner',
      bank: 'Bank account',
      processing: 'Payments',
      review: 'Review and sign',
    },
    progress: 'Progress',
    stepDone: 'completed',
    stepOf: 'Step {step} of {count}',
    continue: 'Save and continue',
    back: 'Back',
    saved:
      'Each step is saved when you continue. To finish later, open the same link again in this browser before {date}; elsewhere, ask the partner that sent it for a new link, which keeps your answers.',
    reviewIntro: 'Check your answers, then sign and submit.',
    change: 'Change',
    notGiven: 'Not given',
    kept: 'Saved: the number ending in {last4}. Leave this empty to keep it, or type the whole number to change it.',
    endingIn: 'Ending in {last4}',
    giveAll: 'Fill in all of {fields}, or leave them all empty.',
    title: 'Set up your merchant account',
    intro:
      'Tell us about your business so you can accept payments. Fields marked optional may be left empty; every other field is needed. It takes about ten minutes.',
    legends: {
      BusinessInfo: 'Your business',
      OwnerInfo: 'Business owner',
      BankingInfo: 'Bank account for payouts',
      ProcessingInfo: 'How you take payments',
      agreement: 'Merchant agreement',
    },
    chooseOne: 'Choose one',
    reenter: 'For your security, re-enter it: we never send it back to your browser.',
    correctOne: 'Please correct one answer',
    correctMany: 'Please correct {count} answers',
    agree: 'I have read and accept the Paykit merchant agreement, version {version}.',
    sign: 'Type your full name to sign',
    signHint: 'First and last name, e.g. Jane Doe.',
    submit: 'Sign and submit application',
    thankYouTitle: 'Thank you — your application is under review',
    received: 'We have received the application for {business} and your signed merchant agreement.',
    receivedUnnamed: 'We have received the application and your signed merchant agreement.',
    next: 'The partner that sent you the link will let you know when your account is approved. You can close this page.',
    unknownTitle: 'This onboarding link is not valid',
    unknown:
      'Check that you opened the whole link from your message. If it still does not work, ask the partner that sent it for a new link.',
    usedTitle: 'This onboarding link has already been used',
    used: 'The application for this link has been submitted and is being reviewed. Each link works once; if you need to change your details, ask the partner that sent it.',
    expiredTitle: 'This onboarding link has expired',
    expired:
      'An onboarding link must be opened within {minutes} minutes, and then works for {days} days in the browser that opened it. Ask the partner that sent it for a new link: your saved answers are kept.',
    elsewhereTitle: 'This onboarding link was opened in another browser',
    elsewhere:
      'For your security, a link works only in the browser that opened it first. Ask the partner that sent it for a new link: your saved answers are kept.',
    agreementTitle: 'Paykit merchant agreement (sandbox), version {version}',
    agreementTerms: [
      'You accept card and bank payments through Paykit for the business described above, and only for lawful goods and services.',
      'The details you give are true and complete, and you will tell your partner when they change.',
      'Paykit pays settled funds, less its fees, into the bank account above, and may hold funds to cover refunds, chargebacks and suspected fraud.',
      'Paykit uses your details to verify you and your business, and keeps only the last four digits of the Social Security and bank account numbers.',
      "Either side may end this agreement with 30 days' notice. This is a sandbox agreement: no real money moves.",
    ],
    labels,
    hints: {
      'BusinessInfo.dba': 'The name customers know you by, if it differs from the legal name.',
      'BusinessInfo.ein': 'Employer Identification Number: 9 digits, e.g. 12-3456789.',
      'BusinessInfo.business_phone': PHONE,
      'BusinessInfo.website': 'Starts with https://',
      'OwnerInfo.b_title': 'Your role in the business, e.g. Owner or CEO.',
      'OwnerInfo.ownership_percent': 'The share of the business you own, from 0 to 100.',
      'OwnerInfo.phone': PHONE,
      'OwnerInfo.date_of_birth': 'Owners must be at least 18.',
      'OwnerInfo.ssn': 'Social Security number: 9 digits. Only the last four are kept.',
      'OwnerInfo.b_dl_number': '4 to 20 letters or digits.',
      'BankingInfo.routing_number': 'The 9-digit ABA routing number, e.g. 110000000.',
      'BankingInfo.account_number': '4 to 17 digits. Only the last four are kept.',
      'ProcessingInfo.annualCCSales': 'In US dollars, e.g. 250000.00.',
      'ProcessingInfo.avgTicket': 'The usual amount of one sale in US dollars, e.g. 45.00.',
      ...percentageHints({ b2: B2, card: CARD, delivery: DELIVERY }),
    } satisfies Partial<Record<FieldName, string>>,
    options,
    required: '{label} is required.',
    tooLong: '{label} must be at most {max} characters.',
    rule: '{label} {problem}.',
    problems: RULE_PROBLEMS,
    oneOf: 'must be one of: {values}',
    mustAddUp: '{fields} must add up to 100 (they add up to {total}).',
    deliveryTimes: 'The four delivery-time percentages',
    signature: SIGNATURE_PROBLEMS,
  },
};

export type PageTexts = Texts<typeof en>;
