import { createCipheriv, createDecipheriv, hkdfSync } from 'node:crypto';
import { pooledRandomBytes } from '../platform/secrets.ts';

/**
 * Stored first answers hold secrets (a new merchant key, a pay link, a session token), so they are kept sealed
 * (AES-256-GCM) under a key derived from the client's secret key and the Idempotency-Key itself. The database holds
 * neither: only their digests. A retry brings both, so it can open the answer; someone reading the database cannot.
 */
const VERSION = 'v1.';

export function sealingKey(clientSecret: string, clientId: string, idempotencyKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', clientSecret, clientId, `paykit idempotent answer\n${idempotencyKey}`, 32));
}

export function seal(key: Buffer, text: string): string {
  const iv = pooledRandomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return `${VERSION}${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
}

/**
 * The answer's text, or undefined when it cannot be opened with this key (the client's secret changed since).
 * Answers stored before sealing began are plain text; they are purged within a day of the upgrade.
 */
export function unseal(key: Buffer, stored: string): string | undefined {
  if (!stored.startsWith(VERSION)) return stored;
  const bytes = Buffer.from(stored.slice(VERSION.length), 'base64url');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
