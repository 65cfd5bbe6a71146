/** How far the sandbox may move the clock in all: far enough for any expiry, near enough that dates stay dates. */
export const MAX_CLOCK_OFFSET_MS = 100 * 366 * 24 * 3_600_000;

/** The service's clock. The sandbox may move it forward; nothing else reads the system time. */
export class Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** Moves the clock forward; refuses anything but a finite step that keeps it within `MAX_CLOCK_OFFSET_MS`. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward, by a finite step');
    if (!this.canAdvance(ms)) throw new RangeError('the clock may move at most 100 years ahead in all');
    this.offsetMs += ms;
  }

  canAdvance(ms: number): boolean {
    return Number.isFinite(ms) && ms >= 0 && this.offsetMs + ms <= MAX_CLOCK_OFFSET_MS;
  }

  /** How far the sandbox has moved the clock, to keep across restarts. */
  get offset(): number {
    return this.offsetMs;
  }

  restore(offsetMs: number): void {
    if (Number.isFinite(offsetMs) && offsetMs >= 0 && offsetMs <= MAX_CLOCK_OFFSET_MS) this.offsetMs = offsetMs;
  }
}
