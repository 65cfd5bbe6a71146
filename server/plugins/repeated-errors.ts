/** What it logs through: a pino logger, or anything with the same two methods. */
interface ErrorLogger {
  error(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/**
 * Logs an error that may repeat for every request (the database away, a full disk) once per interval: the first
 * with its stack, then one line with how many more came, so a failing disk is not filled further by its own log.
 */
export class RepeatedErrorLog {
  private readonly last = new Map<string, { at: number; more: number }>();

  private readonly log: ErrorLogger;
  private readonly intervalMs;
  private readonly now: () => number;

  constructor(log: ErrorLogger, intervalMs = 10_000, now: () => number = Date.now) {
    this.log = log;
    this.intervalMs = intervalMs;
    this.now = now;
  }

  report(kind: string, error: unknown, message: string): void {
    const now = this.now();
    const seen = this.last.get(kind);
    if (seen && now - seen.at < this.intervalMs) {
      seen.more++;
      return;
    }
    if (seen && seen.more > 0)
      this.log.warn(
        { kind, count: seen.more, seconds: Math.round((now - seen.at) / 1000) },
        `${seen.more} more: ${message}`,
      );
    this.last.set(kind, { at: now, more: 0 });
    this.log.error({ err: error, kind }, message);
  }
}
