/**
 * Type-level check, run by `npm run typecheck` and by test/client/published-types.test.ts: every type generated into
 * contract/wire-types.ts equals (is assignable both ways with) TypeBox's `Static` of its schema, and every
 * exported schema has a generated type. A failure names the schemas that differ.
 */
import type { Static, TSchema } from 'typebox';
import type { SchemaTypes } from '../../contract/wire-types.ts';
import type * as Branding from '../../server/schemas/branding.ts';
import type * as Customers from '../../server/schemas/customers.ts';
import type * as Disputes from '../../server/schemas/disputes.ts';
import type * as Envelope from '../../server/schemas/envelope.ts';
import type * as Merchants from '../../server/schemas/merchants.ts';
import type * as Onboarding from '../../server/schemas/onboarding.ts';
import type * as Payments from '../../server/schemas/payments.ts';
import type * as Payouts from '../../server/schemas/payouts.ts';
import type * as Sandbox from '../../server/schemas/sandbox.ts';
import type * as Webhooks from '../../server/schemas/webhooks.ts';
import type * as Widgets from '../../server/schemas/widgets.ts';

type Modules = typeof Branding &
  typeof Customers &
  typeof Disputes &
  typeof Envelope &
  typeof Merchants &
  typeof Onboarding &
  typeof Payments &
  typeof Payouts &
  typeof Sandbox &
  typeof Webhooks &
  typeof Widgets;
// TypeBox's TSchema is an empty interface; its schema types carry a `~kind` (or `~unsafe`) brand.
type SchemaNames = {
  [K in keyof Modules]: Modules[K] extends { '~kind': string } | { '~unsafe': unknown } ? K : never;
}[keyof Modules];

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

type Differing = {
  [K in keyof SchemaTypes]: K extends SchemaNames
    ? Same<Static<Modules[K] & TSchema>, SchemaTypes[K]> extends true
      ? never
      : K
    : K;
}[keyof SchemaTypes];
type Missing = Exclude<SchemaNames, keyof SchemaTypes>;

export const noneDiffer: [Differing] extends [never] ? true : { differing: Differing } = true;
export const noneMissing: [Missing] extends [never] ? true : { missing: Missing } = true;
