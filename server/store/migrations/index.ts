import type { Migration, MigrationProvider } from 'kysely';
import type { Dialect } from '../schema.ts';
import { initial } from './001-initial.ts';
import { payments } from './002-payments.ts';
import { webhooks } from './003-webhooks.ts';
import { widgets } from './004-widgets.ts';
import { hardening } from './005-hardening.ts';
import { merchantReview } from './006-merchant-review.ts';
import { listingOrder } from './007-listing-order.ts';
import { oneOrderIndex } from './008-one-order-index.ts';
import { fewerIndexWrites } from './009-fewer-index-writes.ts';
import { capturesIndex } from './010-captures-index.ts';
import { customersWithoutAutoincrement } from './011-customers-without-autoincrement.ts';
import { listingsByPage } from './012-listings-by-page.ts';
import { paymentsConsole } from './014-payments-console.ts';
import { branding } from './015-branding.ts';
import { onboardingDrafts } from './016-onboarding-drafts.ts';
import { emailsByRecipient } from './017-emails-by-recipient.ts';
import { onboardingLinksPerBrowser } from './018-onboarding-links-per-browser.ts';
import { consoleSearch } from './019-console-search.ts';
import { ledger } from './020-ledger.ts';
import { eventsInCommitOrder } from './021-events-in-commit-order.ts';
import { refundReasons } from './022-refund-reasons.ts';
import { disputes } from './023-disputes.ts';
import { payLinkReceiptEmail } from './024-pay-link-receipt-email.ts';
import { sweepInOrder } from './025-sweep-in-order.ts';
import { disputedSales } from './026-disputed-sales.ts';

/** Migrations live in code so that one build runs on both databases; names sort in the order they apply. */
export function migrationProvider(dialect: Dialect): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '001-initial': initial(dialect),
    '002-payments': payments(dialect),
    '003-webhooks': webhooks(dialect),
    '004-widgets': widgets(),
    '005-hardening': hardening(),
    '006-merchant-review': merchantReview(),
    '007-listing-order': listingOrder(),
    '008-one-order-index': oneOrderIndex(),
    '009-fewer-index-writes': fewerIndexWrites(dialect),
    '010-captures-index': capturesIndex(),
    '011-customers-without-autoincrement': customersWithoutAutoincrement(dialect),
    '012-listings-by-page': listingsByPage(dialect),
    '014-payments-console': paymentsConsole(),
    '015-branding': branding(dialect),
    '016-onboarding-drafts': onboardingDrafts(),
    '017-emails-by-recipient': emailsByRecipient(),
    '018-onboarding-links-per-browser': onboardingLinksPerBrowser(),
    '019-console-search': consoleSearch(dialect),
    '020-ledger': ledger(dialect),
    '021-events-in-commit-order': eventsInCommitOrder(dialect),
    '022-refund-reasons': refundReasons(),
    '023-disputes': disputes(dialect),
    '024-pay-link-receipt-email': payLinkReceiptEmail(),
    '025-sweep-in-order': sweepInOrder(),
    '026-disputed-sales': disputedSales(),
  };
  return { getMigrations: async () => migrations };
}
