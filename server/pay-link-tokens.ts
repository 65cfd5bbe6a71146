import { digest, millisecondsHex, newToken } from './secrets.ts';

/**
 * Pay-link tokens begin with the time they were made, as 12 hex digits of Unix milliseconds (a UUIDv7's first 48
 * bits), then 256 random bits in base64url; a link's row keeps that time followed by the token's SHA-256 digest. The
 * unique index on that key grows at one end, as the ids' indexes do, where a bare digest put each new link on a page
 * of the index of its own: every commit wrote one more page per link to the WAL, and the index soon outgrew the page
 * cache (docs/performance.md, "Fourth round"). The time grants nothing, and tells what the link's id already tells.
 *
 * Links made before carry no time (`pl_` and 43 characters): their rows keep the bare digest, and are found by it.
 */
const TIMED_TOKEN = /^pl_([0-9a-f]{12})[A-Za-z0-9_-]{43}$/;

export function newPayLinkToken(): string {
  return newToken(`pl_${millisecondsHex(Date.now())}`);
}

/** What a link's row is stored and found under: the token's time and digest, or the bare digest of an older token. */
export function payLinkKey(token: string): string {
  const time = TIMED_TOKEN.exec(token)?.[1];
  return time === undefined ? digest(token) : `${time}${digest(token)}`;
}
