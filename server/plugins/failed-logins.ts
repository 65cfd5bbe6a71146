import { KnownCredentials } from './known-credentials.ts';
import { RateLimiter } from './rate-limit.ts';

/** Wrong credentials for one client id from one address in a minute before that pair must wait. */
export const FAILED_AUTHENTICATIONS_PER_MINUTE = 60;
/** Wrong credentials from one address in a minute, whatever ids they name, before guessing more ids is slowed. */
export const FAILED_AUTHENTICATIONS_PER_ADDRESS_PER_MINUTE = 600;

export const TOO_MANY_FAILURES = (seconds: number) =>
  `Too many failed authentications from your address: try again in ${seconds} seconds.`;

/**
 * Throttles whoever guesses credentials, not the others at the guesser's address (one proxy, one office). Failures
 * are counted per id and caller address: a pair over its bound waits the rest of the minute, and is refused before
 * its next guess is checked. An address over its looser bound gets no further guess at an id it has already failed
 * at this minute, but a first try at an id is still checked: correct credentials are not guessing, and pass.
 * Credentials that verified in the last hour are never held up (they are still verified).
 *
 * In memory, per process, like every limit of the service (docs/scaling.md).
 */
export class FailedLogins {
  private readonly perId = new RateLimiter(FAILED_AUTHENTICATIONS_PER_MINUTE);
  private readonly perAddress = new RateLimiter(FAILED_AUTHENTICATIONS_PER_ADDRESS_PER_MINUTE);
  private readonly known = new KnownCredentials();

  /**
   * The seconds `address` must wait before credentials for `id` are checked, else 0. `presented` is their digest, taken
   * of the parsed credentials (`credentialsDigest`), never of the header's spelling; `identity` is whom they name
   * (the id, unless the credentials name nobody before they are checked).
   */
  wait(id: string, address: string, presented: string, identity = id, now = Date.now()): number {
    if (this.known.has(identity, presented, now)) return 0;
    const pair = pairKey(id, address);
    const own = this.perId.wait(pair, now);
    if (own > 0) return own;
    const shared = this.perAddress.wait(address, now);
    return shared > 0 && this.perId.count(pair, now) > 0 ? shared : 0;
  }

  failed(id: string, address: string, now = Date.now()): void {
    this.perId.take(pairKey(id, address), now);
    this.perAddress.take(address, now);
  }

  verified(id: string, presented: string, now = Date.now()): void {
    this.known.remember(id, presented, now);
  }
}

/** No real id is this long; cutting a guessed one keeps each count's key small whatever the header holds. */
const pairKey = (id: string, address: string) => `${id.slice(0, 100)}\n${address}`;
