import { refusedBecause, type RefusedDecision } from './refusals.ts';

/**
 * A merchant's onboarding: `invited` until the hosted form is submitted, `pending` while the application waits for
 * review, then `completed` (approved: it takes payments) or `declined`, for good.
 */
export type MerchantState = 'invited' | 'pending' | 'completed' | 'declined';
export type ReviewDecision = 'approved' | 'declined';

/** The status a partner reads (`merchantStatus`): the interface's `pending` and `completed`, and `declined`. */
export function partnerStatus(state: MerchantState): 'pending' | 'completed' | 'declined' {
  return state === 'invited' ? 'pending' : state;
}

const REASON_MAX_LENGTH = 500;

/** Whether a review may decide `decision` for a merchant in `state`, and the state it moves to. */
export function decideReview(
  merchantId: string,
  state: MerchantState,
  decision: ReviewDecision,
  reason: string,
): { ok: true; next: 'completed' | 'declined' } | RefusedDecision {
  if (state === 'completed') return refusedBecause('conflict', `Merchant ${merchantId} is already approved.`);
  if (state === 'declined')
    return refusedBecause(
      'conflict',
      `Merchant ${merchantId} was declined; a declined application is not reviewed again.`,
    );
  if (state === 'invited') {
    return refusedBecause(
      'conflict',
      `Merchant ${merchantId} has not submitted its onboarding form yet; review it once it has.`,
    );
  }
  if (decision === 'declined' && reason.trim() === '')
    return refusedBecause('invalid_request', 'A decline needs a reason the partner can pass on to the merchant.');
  if (reason.length > REASON_MAX_LENGTH)
    return refusedBecause('invalid_request', `The reason must be at most ${REASON_MAX_LENGTH} characters.`);
  return { ok: true, next: decision === 'approved' ? 'completed' : 'declined' };
}
