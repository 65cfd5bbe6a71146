/**
 * Whether a database error means the database is out of reach or out of room for now, rather than that the request
 * was wrong or the code is: a PostgreSQL restart, failover or idle cut, a refused connection, a full disk. A retry
 * after a moment may succeed, so the edge answers 503 with Retry-After instead of 500.
 */
export function isStorageUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    // PostgreSQL: connection exceptions (08…), operator intervention (57P01 admin shutdown, 57P02 crash shutdown,
    // 57P03 cannot connect now, 57P05 idle session ended), insufficient resources (53…: disk full, out of memory, too
    // many connections), and its bounds on a session (postgres-pool.ts): 57014 a statement cancelled at its timeout,
    // 25P03 a transaction left idle too long.
    if (/^(08|53)/.test(code) || /^57P0[1-35]$/.test(code) || code === '57014' || code === '25P03') return true;
    // The socket to PostgreSQL: refused, reset or timed out.
    if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND'].includes(code)) return true;
    // SQLite: a full disk, an I/O error, the database locked by another process for longer than its busy timeout.
    if (
      code === 'SQLITE_FULL' ||
      code.startsWith('SQLITE_IOERR') ||
      code === 'SQLITE_BUSY' ||
      code === 'SQLITE_CANTOPEN'
    )
      return true;
  }
  // node-postgres' own words when a socket ends or a pool cannot hand out a connection in time.
  return typeof message === 'string' && PG_CONNECTION_MESSAGES.some((words) => message.includes(words));
}

const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
];

/** A log that background work (housekeeping, webhook dispatch, payouts) writes its failed tries to. */
export interface FailureLog {
  error(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/**
 * A background part's failed try: a warning while the database is away (the pool or the refused request says so once,
 * as an error; the part tries again on its own), an error otherwise.
 */
export function logFailedTry(log: FailureLog | undefined, error: unknown, message: string): void {
  if (isStorageUnavailable(error)) log?.warn({ err: error }, message);
  else log?.error({ err: error }, message);
}
