/** Why a payment is refused before it reaches the processor; named, so that the hosted page can say it in the payer's language. */
export const PAYMENT_PROBLEMS = {
  noAch: 'This payment request does not accept bank (ACH) payments.',
  routing: 'The routing number is not a valid nine-digit ABA routing number.',
  account: 'The account number must be 4 to 17 digits.',
  noCard: 'This payment request does not accept card payments.',
  needsChallenge: 'This payment needs a 3-D Secure challenge: send three_ds "pass" or "fail".',
  challengeUsed: 'The 3-D Secure check expired or was already answered: enter the card again.',
} as const;
