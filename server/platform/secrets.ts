import { hash, randomBytes, randomFillSync, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * Random bytes from a pool filled 4 KB at a time, as randomUUID does: each call into the CSPRNG costs a few
 * microseconds whatever its size, which a payment request (one token) paid on the event loop. Bytes are used once
 * and wiped from the pool as they are handed out, so it never holds a token already given.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

/** Where the next `size` unused bytes of the pool start; the caller wipes them once it has read them. */
function takeFromPool(size: number): number {
  if (poolOffset + size > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const start = poolOffset;
  poolOffset += size;
  return start;
}

export function pooledRandomBytes(size: number): Buffer {
  if (size > pool.length) return randomBytes(size);
  const start = takeFromPool(size);
  const bytes = Buffer.from(pool.subarray(start, start + size));
  pool.fill(0, start, start + size);
  return bytes;
}

/** A random bearer token: `prefix` plus 32 bytes in base64url (256 bits), encoded straight from the pool. */
export function newToken(prefix: string): string {
  const start = takeFromPool(32);
  const text = pool.toString('base64url', start, start + 32);
  pool.fill(0, start, start + 32);
  return `${prefix}${text}`;
}

/**
 * An identifier with a kind prefix, e.g. `m_019a…` (a UUID, as the interface calls them GUIDs). Version 7: the
 * first 48 bits are the time in milliseconds, so rows written together sit side by side in every index on their
 * id; a random UUID would put each in a page of its own, and every commit would write all those pages to disk
 * (docs/performance.md). Ids name things; they grant nothing (tokens do), so telling when one was made is harmless.
 */
export function newId(prefix: string): string {
  return `${prefix}${uuidV7(Date.now())}`;
}

let lastMs = Number.NaN;
let lastHex = '';

/** Unix milliseconds as 12 hex digits, which sort as the times do: a UUIDv7's first 48 bits. */
export function millisecondsHex(unixMs: number): string {
  // A busy millisecond makes several ids and tokens; a number this large takes V8's slow way to hex.
  if (unixMs !== lastMs) {
    lastMs = unixMs;
    lastHex = unixMs.toString(16).padStart(12, '0');
  }
  return lastHex;
}

/** RFC 9562 UUID version 7: 48 bits of Unix milliseconds, then 74 random bits (randomUUID's, from its pooled entropy). */
export function uuidV7(unixMs: number): string {
  const time = millisecondsHex(unixMs);
  // A version 4 UUID's bits after its version nibble: 12 random, the variant, 62 random.
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${randomUUID().slice(15)}`;
}

/**
 * Secrets and bearer tokens are stored as SHA-256 digests. They carry 256 random bits, so a fast
 * digest is enough: a slow password hash would only slow down every authenticated request.
 */
export function digest(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** Compares a presented secret with a stored digest in constant time. */
export function matchesDigest(secret: string, storedDigest: string): boolean {
  const presented = Buffer.from(digest(secret), 'hex');
  const stored = Buffer.from(storedDigest, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
