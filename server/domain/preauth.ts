/** Preauthorization moves: authorized → (raised / lowered) → captured, or → voided. */

export const PREAUTH_ERRORS = {
  notFound: 'Authorization not found',
  mismatch: 'Amount mismatch: last_authorized_amount must equal the amount authorized now',
  captured: 'The authorization has already been captured.',
  voided: 'The authorization has been voided.',
  unchanged: 'new_authorized_amount equals the amount authorized now: nothing to change.',
} as const;

export interface Authorization {
  kind: string;
  status: string;
  amount: number;
}

export type PreauthCheck = { ok: true } | { ok: false; message: string; status: number };

/** Whether an authorization can still be changed, captured or voided; `lastAuthorized` guards against stale callers. */
export function checkOpenAuthorization(auth: Authorization | undefined, lastAuthorized?: number): PreauthCheck {
  if (!auth || auth.kind !== 'preauth') return { ok: false, message: PREAUTH_ERRORS.notFound, status: 404 };
  if (auth.status === 'captured') return { ok: false, message: PREAUTH_ERRORS.captured, status: 409 };
  if (auth.status === 'voided') return { ok: false, message: PREAUTH_ERRORS.voided, status: 409 };
  if (lastAuthorized !== undefined && lastAuthorized !== auth.amount) return { ok: false, message: PREAUTH_ERRORS.mismatch, status: 409 };
  return { ok: true };
}

export type AmountChange = { ok: true; event: 'preauth.increment' | 'preauth.decrement' } | { ok: false; message: string; status: number };

export function decideAmountChange(auth: Authorization | undefined, lastAuthorized: number, newAmount: number): AmountChange {
  const open = checkOpenAuthorization(auth, lastAuthorized);
  if (!open.ok) return open;
  if (newAmount === auth!.amount) return { ok: false, message: PREAUTH_ERRORS.unchanged, status: 400 };
  return { ok: true, event: newAmount > auth!.amount ? 'preauth.increment' : 'preauth.decrement' };
}
