/** The service's clock. The sandbox may move it forward; nothing else reads the system time. */
export class Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('the clock only moves forward');
    this.offsetMs += ms;
  }

  /** How far the sandbox has moved the clock, to keep across restarts. */
  get offset(): number {
    return this.offsetMs;
  }

  restore(offsetMs: number): void {
    if (Number.isFinite(offsetMs) && offsetMs >= 0) this.offsetMs = offsetMs;
  }
}
