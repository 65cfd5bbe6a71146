/**
 * Counts requests per key in fixed one-minute windows. In memory, per process: with several processes each
 * allows the limit, which is acceptable for a limit meant to stop abuse, not to meter. At most `maxKeys` keys are
 * kept: when full, expired windows are swept (at most once a second, so a flood of new keys cannot make every
 * request walk them all) and then the oldest is dropped.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private sweptAt = 0;

  private readonly limit: number;
  private readonly windowMs;
  private readonly maxKeys;

  constructor(limit: number, windowMs = 60_000, maxKeys = 50_000) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.maxKeys = maxKeys;
  }

  /** Counts one request; the seconds to wait when it is over the limit, else 0. */
  take(key: string, now = Date.now()): number {
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      if (!window) this.makeRoom(now);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    return window.count > this.limit ? this.secondsLeft(window, now) : 0;
  }

  /** The seconds to wait when `key` is already over the limit, else 0; counts nothing. */
  wait(key: string, now = Date.now()): number {
    const window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs || window.count < this.limit) return 0;
    return this.secondsLeft(window, now);
  }

  /** How many were counted for `key` in its current window. */
  count(key: string, now = Date.now()): number {
    const window = this.windows.get(key);
    return !window || now - window.start >= this.windowMs ? 0 : window.count;
  }

  private secondsLeft(window: { start: number }, now: number): number {
    return Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
  }

  private makeRoom(now: number): void {
    if (this.windows.size < this.maxKeys) return;
    if (now - this.sweptAt >= 1000) {
      this.sweptAt = now;
      for (const [key, window] of this.windows) if (now - window.start >= this.windowMs) this.windows.delete(key);
    }
    if (this.windows.size >= this.maxKeys) this.windows.delete(this.windows.keys().next().value!);
  }
}
