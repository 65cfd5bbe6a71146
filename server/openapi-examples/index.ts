/**
 * A request and its answer, and the same call made with paykit/client, for every operation of the OpenAPI document
 * (GET /api/v1/openapi.json). test/server/api/openapi-examples.test.ts keeps them true: each validates against the
 * served document's schemas, and each client sample typechecks against paykit/client and makes exactly its call.
 */
import { CUSTOMER_EXAMPLES } from './customers.ts';
import { ONBOARDING_EXAMPLES } from './onboarding.ts';
import { PAYMENT_COLLECTION_EXAMPLES } from './payment-collection.ts';
import { PREAUTH_EXAMPLES } from './preauth.ts';
import { SANDBOX_EXAMPLES } from './sandbox.ts';
import { TRANSACTION_EXAMPLES } from './transactions.ts';
import { WEBHOOK_EXAMPLES } from './webhooks.ts';
import { WIDGET_EXAMPLES } from './widgets.ts';
import { BRANDING_EXAMPLES } from './branding.ts';
import { CONSOLE_EXAMPLES } from './console.ts';
import { PAYOUT_EXAMPLES } from './payouts.ts';
import { DISPUTE_EXAMPLES } from './disputes.ts';
import type { OperationExample } from './operation-example.ts';

/**
 * Keyed by `${METHOD} ${path}` with the method upper-case and the path exactly as in the OpenAPI document's `paths`
 * (relative to the server URL /api/v1), e.g. 'POST /customers/add', 'GET /customers/{customerId}'.
 */
export const OPERATION_EXAMPLES: Record<string, OperationExample> = {
  ...WIDGET_EXAMPLES,
  ...CONSOLE_EXAMPLES,
  ...ONBOARDING_EXAMPLES,
  ...CUSTOMER_EXAMPLES,
  ...PAYMENT_COLLECTION_EXAMPLES,
  ...TRANSACTION_EXAMPLES,
  ...PREAUTH_EXAMPLES,
  ...PAYOUT_EXAMPLES,
  ...DISPUTE_EXAMPLES,
  ...WEBHOOK_EXAMPLES,
  ...BRANDING_EXAMPLES,
  ...SANDBOX_EXAMPLES,
};
