/** What a pay link's holder sees of it: paid, expired (the seven days ran out unpaid), or still open. */
export function payLinkStatus(link: { status: 'open' | 'paid'; expires_at: string }, now: Date): 'open' | 'paid' | 'expired' {
  if (link.status === 'paid') return 'paid';
  return link.expires_at <= now.toISOString() ? 'expired' : 'open';
}
