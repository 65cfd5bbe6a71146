import type { Store } from '../store/store.ts';
import type { KeyedMerchant } from '../store/merchants.ts';
import { notFound } from '../domain/refusals.ts';
import { digest } from '../platform/secrets.ts';

const UNKNOWN_MERCHANT_KEY = 'merchant_key does not match any of your merchants: check the key.';

/**
 * The merchant that `merchantKey` names, among the client's own. Another client's key gets exactly the
 * answer an unknown key gets, so keys cannot be probed across clients. An approved merchant is answered from memory
 * for a few seconds (store/recent-merchants.ts).
 */
export async function merchantByKey(store: Store, clientId: string, merchantKey: string): Promise<KeyedMerchant> {
  const keyHash = digest(merchantKey);
  const recent = store.recentMerchants.get(clientId, keyHash);
  if (recent) return recent;
  const merchant = await store.merchants.findByKeyHash(clientId, keyHash);
  if (!merchant) throw notFound(UNKNOWN_MERCHANT_KEY);
  store.recentMerchants.remember(clientId, keyHash, merchant);
  return merchant;
}
