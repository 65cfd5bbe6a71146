/** The sandbox processor's cards (contract: Sandbox helpers). Only the brand and last four are ever kept. */

/** A `dispute_…` card approves, then its sale is disputed at once (domain/disputes.ts, `DISPUTE_CARDS`). */
export type CardOutcome =
  | 'approve'
  | 'card_declined'
  | 'insufficient_funds'
  | 'challenge'
  | 'dispute_fraudulent'
  | 'dispute_product_not_received'
  | 'dispute_inquiry';

const TEST_CARDS: Record<string, CardOutcome> = {
  '4242424242424242': 'approve',
  '4000000000000002': 'card_declined',
  '4000000000009995': 'insufficient_funds',
  '4000000000003220': 'challenge',
  '4000000000000259': 'dispute_fraudulent',
  '4000000000002685': 'dispute_product_not_received',
  '4000000000001976': 'dispute_inquiry',
};

export const DECLINE_MESSAGES = {
  card_declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  three_ds_failed: 'The card issuer could not verify you (3-D Secure failed).',
} as const;

/** Why a card is refused before it reaches the processor; named, so that the hosted page can say it in the payer's language. */
export const CARD_PROBLEMS = {
  number: 'The card number is not valid.',
  sandbox: 'In the sandbox, use a test card such as 4242 4242 4242 4242.',
  month: 'The expiry month must be 1 to 12.',
  expired: 'The card has expired.',
  cvc3: 'The security code must be 3 digits.',
  cvc4: 'The security code must be 4 digits.',
} as const;

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The brands a card number's first digits tell, with the short name the pay page shows beside the number. */
export const CARD_BRANDS = [
  { name: 'Visa', short: 'Visa', prefix: /^4/ },
  { name: 'Mastercard', short: 'Mastercard', prefix: /^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/ },
  { name: 'American Express', short: 'Amex', prefix: /^3[47]/ },
  { name: 'Discover', short: 'Discover', prefix: /^(6011|65|64[4-9])/ },
] as const;

function cardBrand(digits: string): string {
  return CARD_BRANDS.find((brand) => brand.prefix.test(digits))?.name ?? 'Card';
}

export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

export type CardCheck =
  { ok: true; digits: string; brand: string; lastFour: string; outcome: CardOutcome } | { ok: false; message: string };

/** Checks a card as a processor would, in the sandbox: only the test cards are accepted. */
export function checkCard(card: CardInput, today: { year: number; month: number }): CardCheck {
  const digits = card.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) return { ok: false, message: CARD_PROBLEMS.number };
  const outcome = TEST_CARDS[digits];
  if (!outcome) return { ok: false, message: CARD_PROBLEMS.sandbox };
  if (!Number.isInteger(card.expMonth) || card.expMonth < 1 || card.expMonth > 12)
    return { ok: false, message: CARD_PROBLEMS.month };
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  if (!Number.isInteger(year) || year < today.year || (year === today.year && card.expMonth < today.month)) {
    return { ok: false, message: CARD_PROBLEMS.expired };
  }
  const brand = cardBrand(digits);
  if (!(brand === 'American Express' ? /^\d{4}$/ : /^\d{3}$/).test(card.cvc)) {
    return { ok: false, message: brand === 'American Express' ? CARD_PROBLEMS.cvc4 : CARD_PROBLEMS.cvc3 };
  }
  return { ok: true, digits, brand, lastFour: digits.slice(-4), outcome };
}
