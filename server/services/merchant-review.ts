import type { Store } from '../store/store.ts';
import type { Merchant, MerchantAccount } from '../store/merchants.ts';
import { conflict, notFound, Refusal } from '../domain/refusals.ts';
import { decideReview, partnerStatus, type ReviewDecision } from '../domain/merchant-review.ts';
import { digest, newId, newToken } from '../platform/secrets.ts';
import { approvalEvent, merchantStatusEvent } from './events.ts';
import { isoInstant } from '../domain/instants.ts';

const UNKNOWN_APPLICATION = (ref: string) =>
  `No merchant ${ref}: send its merchant_id (m_…) or its merchant key (mk_…).`;

/** A merchant by its id or its key, across every client: operators review the whole platform's applications. */
export async function findApplication(store: Store, ref: string): Promise<Merchant> {
  const merchant = ref.startsWith('mk_')
    ? await store.merchants.findByKeyHashUnscoped(digest(ref))
    : await store.merchants.findByIdUnscoped(ref);
  if (!merchant) throw notFound(UNKNOWN_APPLICATION(ref));
  return merchant;
}

/**
 * Approves or declines a pending application, once: the status moves, the decision is kept with its reviewer and
 * reason, and the partner hears `merchant_status` (and `merchant.approval` on approval), all in one transaction.
 */
export async function reviewApplication<M extends MerchantAccount>(
  store: Store,
  merchant: M,
  decision: ReviewDecision,
  reason: string,
  reviewer: string,
  now: Date,
): Promise<M> {
  const check = decideReview(merchant.id, merchant.status, decision, reason);
  if (!check.ok) throw new Refusal(check.reason, check.message);
  const at = isoInstant(now);
  const changes =
    check.next === 'completed'
      ? { status: 'completed' as const, approved_at: at }
      : { status: 'declined' as const, declined_at: at, decline_reason: reason.trim() };
  return store.transaction(async (tx) => {
    if (!(await tx.merchants.transition(merchant.id, 'pending', changes))) {
      const now_ = await tx.merchants.findByIdUnscoped(merchant.id);
      const again = decideReview(merchant.id, now_!.status, decision, reason);
      throw again.ok
        ? conflict(`Merchant ${merchant.id} changed while it was reviewed: try again.`)
        : new Refusal(again.reason, again.message);
    }
    await tx.operators.addReview({
      id: newId('rev_'),
      merchant_id: merchant.id,
      decision,
      reason: reason.trim(),
      reviewer,
      decided_at: at,
    });
    const reviewed: M = { ...merchant, ...changes };
    if (check.next === 'completed') {
      await tx.events.add(merchant.client_id, 'merchant.approval', approvalEvent(merchant), now);
    }
    await tx.events.add(
      merchant.client_id,
      'merchant_status',
      merchantStatusEvent(reviewed, partnerStatus(reviewed.status), reviewed.decline_reason ?? '', now),
      now,
    );
    return reviewed;
  });
}

/** A new operator credential: the token is shown once and only its digest is kept. */
export async function createOperator(store: Store, name: string, now: Date): Promise<{ id: string; token: string }> {
  const token = newToken('op_');
  const id = newId('opr_');
  await store.operators.insert({ id, name, token_hash: digest(token), created_at: isoInstant(now) });
  return { id, token };
}
