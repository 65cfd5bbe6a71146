import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** A random bearer token: `prefix` plus 32 bytes in base64url (256 bits). */
export function newToken(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** A random identifier with a kind prefix, e.g. `m_5f0c…` (a UUID, as the interface calls them GUIDs). */
export function newId(prefix: string): string {
  return `${prefix}${randomUUID()}`;
}

/**
 * Secrets and bearer tokens are stored as SHA-256 digests. They carry 256 random bits, so a fast
 * digest is enough: a slow password hash would only slow down every authenticated request.
 */
export function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Compares a presented secret with a stored digest in constant time. */
export function matchesDigest(secret: string, storedDigest: string): boolean {
  const presented = Buffer.from(digest(secret), 'hex');
  const stored = Buffer.from(storedDigest, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
