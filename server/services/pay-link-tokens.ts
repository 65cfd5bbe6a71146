import { digest, millisecondsHex, newToken } from '../platform/secrets.ts';

/**
 * Pay-link tokens begin with the time they were made, as 12 hex digits of Unix milliseconds (a UUIDv7's first 48
 * bits), then 256 random bits in base64url; a link's row keeps that time followed by the token's SHA-256 digest. The
 * unique index on that key grows at one end, as the ids' indexes do, where a bare digest put each new link on a page
 * of the index of its own: every commit wrote one more page per link to the WAL, and the index soon outgrew the page
 * cache (docs/performance.md). The time grants nothing, and tells what the link's id already tells.
 */
const TIMED_TOKEN = /^pl_([0-9a-f]{12})[A-Za-z0-9_-]{43}$/;

/** A new pay link's token, and the key its row is stored under. */
export function newPayLink(): { token: string; key: string } {
  const time = millisecondsHex(Date.now());
  const token = newToken(`pl_${time}`);
  return { token, key: `${time}${digest(token)}` };
}

/** What a link's row is stored and found under: the token's time and digest; none when it is not a pay-link token. */
export function payLinkKey(token: string): string | undefined {
  const time = TIMED_TOKEN.exec(token)?.[1];
  return time === undefined ? undefined : `${time}${digest(token)}`;
}
