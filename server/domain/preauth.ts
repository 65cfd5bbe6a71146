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

/**
 * A hold's history (issue 44): its authorization, each raise and cut (the amount authorized after it), the capture
 * (the amount charged) and what was released (the rest at a capture, or all of it at a void). Minor units.
 */
export const HOLD_MOVES = ['authorized', 'increased', 'decreased', 'captured', 'released'] as const;
export type HoldMove = { move: (typeof HOLD_MOVES)[number]; amount: number; at: string };

interface HoldRecord {
  amount: number;
  created_at: string;
  hold_history?: string | null | undefined;
}

/** The moves kept on the hold; a hold from before they were kept was authorized at its present amount, as far as known. */
export function movesOf(hold: HoldRecord): HoldMove[] {
  if (hold.hold_history) return JSON.parse(hold.hold_history) as HoldMove[];
  return [{ move: 'authorized', amount: hold.amount, at: hold.created_at }];
}

/** The history with `moves` after it, as the hold keeps it. */
export const historyWith = (hold: HoldRecord, ...moves: HoldMove[]): string =>
  JSON.stringify([...movesOf(hold), ...moves]);

/** A capture of `charged` from a hold of `held`: the capture, and the rest released when it charged less. */
export function captureMoves(held: number, charged: number, at: string): HoldMove[] {
  const moves: HoldMove[] = [{ move: 'captured', amount: charged, at }];
  if (charged < held) moves.push({ move: 'released', amount: held - charged, at });
  return moves;
}

/** What the history adds up to: first authorized, and captured and released (null until they happen). */
export function holdTotals(moves: HoldMove[]) {
  const sum = (kind: HoldMove['move']) => {
    const of = moves.filter((m) => m.move === kind);
    return of.length === 0 ? null : of.reduce((total, m) => total + m.amount, 0);
  };
  return { authorized: moves[0]?.amount ?? 0, captured: sum('captured'), released: sum('released') };
}
