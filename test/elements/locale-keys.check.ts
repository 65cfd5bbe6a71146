/**
 * Type-level test (tsc checks it in `npm run typecheck`): every language has exactly the texts of every element, no
 * key missing and none left over. It lives here because the locale modules cannot name the elements' keys
 * themselves: the elements load them (src/locales/locale-texts.ts).
 */
import type { PayButtonStringKey } from '../../src/elements/pay-button/pay-button.ts';
import type { RequestPaymentButtonStringKey } from '../../src/elements/request-payment-button/request-payment-button.ts';
import type { transactionsTableStrings } from '../../src/elements/transactions-table/transactions-table.ts';
import type { ConsoleStringKey } from '../../src/elements/transactions-table/transaction-console.ts';
import type { PayoutsStringKey } from '../../src/elements/transactions-table/payouts-view.ts';
import type { DisputeStringKey } from '../../src/elements/transactions-table/dispute-view.ts';
import type de from '../../src/locales/de.ts';
import type es from '../../src/locales/es.ts';
import type fr from '../../src/locales/fr.ts';

type TableKey =
  | keyof typeof transactionsTableStrings
  | ConsoleStringKey
  | PayoutsStringKey
  | DisputeStringKey
  | `status${'Completed' | 'Voided' | 'Pending' | 'Declined' | 'Authorized' | 'Captured' | 'Disputed' | 'Refunded' | 'PartlyRefunded'}`
  | `type${'Sale' | 'Refund' | 'Void' | 'Hold'}`;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

type Complete<Texts extends { payButton: object; requestPaymentButton: object; transactionsTable: object }> = [
  Same<keyof Texts['payButton'], PayButtonStringKey>,
  Same<keyof Texts['requestPaymentButton'], RequestPaymentButtonStringKey>,
  Same<keyof Texts['transactionsTable'], TableKey>,
];

export const languagesComplete: [Complete<typeof de>, Complete<typeof es>, Complete<typeof fr>] = [
  [true, true, true],
  [true, true, true],
  [true, true, true],
];
