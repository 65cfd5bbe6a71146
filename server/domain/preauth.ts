/** Preauthorization moves: authorized → (raised / lowered) → captured, or → voided. */
import { refusedBecause, type RefusedDecision } from './refusals.ts';

export const PREAUTH_ERRORS = {
  notFound: 'Authorization not found',
  captured:
    'This authorization was already captured: an authorization is captured once. GET /preauth/{transaction_id} names the sale it made; refund or void that sale instead.',
  voided: 'This authorization was voided: it holds nothing to capture, change or void.',
  mismatch: 'Amount mismatch: last_authorized_amount must equal the amount authorized now',
  unchanged: 'new_authorized_amount equals the amount authorized now: nothing to change.',
} as const;

export interface Authorization {
  kind: string;
  status: string;
  amount: number;
}

export type PreauthCheck = { ok: true } | RefusedDecision;

/**
 * Whether an authorization can still be changed, captured or voided; `lastAuthorized` guards against stale callers.
 * An unknown id is `Authorization not found`, the interface's failure of capture; one that was captured or voided
 * exists, so it is a conflict that says which (docs/decisions.md).
 */
export function checkOpenAuthorization(auth: Authorization | undefined, lastAuthorized?: number): PreauthCheck {
  if (!auth || auth.kind !== 'preauth') return refusedBecause('not_found', PREAUTH_ERRORS.notFound);
  if (auth.status === 'captured') return refusedBecause('conflict', PREAUTH_ERRORS.captured);
  if (auth.status !== 'authorized') return refusedBecause('conflict', PREAUTH_ERRORS.voided);
  if (lastAuthorized !== undefined && lastAuthorized !== auth.amount)
    return refusedBecause('conflict', PREAUTH_ERRORS.mismatch);
  return { ok: true };
}

export type AmountChange = { ok: true; event: 'preauth.increment' | 'preauth.decrement' } | RefusedDecision;

export function decideAmountChange(
  auth: Authorization | undefined,
  lastAuthorized: number,
  newAmount: number,
): AmountChange {
  const open = checkOpenAuthorization(auth, lastAuthorized);
  if (!open.ok) return open;
  if (newAmount === auth!.amount) return refusedBecause('invalid_request', PREAUTH_ERRORS.unchanged);
  return { ok: true, event: newAmount > auth!.amount ? 'preauth.increment' : 'preauth.decrement' };
}
