import type { Socket } from 'node:net';
import pg from 'pg';

/**
 * How long the service waits on PostgreSQL, and how long PostgreSQL lets one of its sessions wait or run: every bound
 * in one place (docs/scaling.md, "When the database hangs or vanishes").
 *
 * The service gives up on a statement after `answerMs` and closes its connection; PostgreSQL ends a statement after
 * `statementMs` and a session idle for `idleMs` (inside a transaction or not), its transaction rolled back. Since
 * `idleMs + statementMs < answerMs`, whatever PostgreSQL had not finished by the time the service gave up never
 * commits afterwards: a statement that reached a frozen server, or came through a link that held it, finds its session
 * ended for idling; one still running is cancelled first. (A COMMIT already under way when the server froze may still
 * complete: its request answered 503, and a retry with the same Idempotency-Key replays it.)
 */
export const POSTGRES_TIMEOUTS = {
  /** A statement without an answer this long: the request fails (503) and the connection is destroyed, not reused. */
  answerMs: 5000,
  /** Waiting for a connection, from the pool or a new one, at most this long (503 then). */
  connectMs: 5000,
  /** PostgreSQL's `statement_timeout`. */
  statementMs: 2500,
  /** PostgreSQL's `idle_in_transaction_session_timeout` and `idle_session_timeout`. */
  idleMs: 2000,
  /** The pool closes a connection idle this long, before PostgreSQL ends it for idling. */
  poolIdleMs: 1000,
  /** TCP keepalive probes start on a connection silent this long. */
  keepAliveMs: 1000,
} as const;

/** Connections per process. */
const POOL_SIZE = 10;

/** How many statements the store sent to PostgreSQL: each is one round trip. */
export class StatementCounter {
  count = 0;
}

export interface PoolOptions {
  /** PostgreSQL schema to work in. */
  schema?: string | undefined;
  /** Told when a connection ends or is given up on; the pool drops it and opens another when next needed. */
  onConnectionError?: ((error: Error) => void) | undefined;
  statements?: StatementCounter | undefined;
  /** Without the bounds above: for migrations, whose statements may rightly run long. */
  unbounded?: boolean;
}

/** The pool the store works through: every bound above applied to every connection it opens. */
export function openPool(
  connectionString: string,
  { schema, onConnectionError, statements, unbounded = false }: PoolOptions,
): pg.Pool {
  const t = POSTGRES_TIMEOUTS;
  // Server settings travel in the startup packet (no statement of their own), beside any the URL already gives:
  // pg takes `options` from the URL over the one passed here, so the URL's is moved into ours.
  const url = new URL(connectionString);
  const given = url.searchParams.get('options');
  url.searchParams.delete('options');
  const settings = [
    ...(unbounded
      ? []
      : [
          `-c statement_timeout=${t.statementMs}`,
          `-c idle_in_transaction_session_timeout=${t.idleMs}`,
          `-c idle_session_timeout=${t.idleMs}`,
        ]),
    ...(schema ? [`-c search_path=${schema}`] : []),
    ...(given ? [given] : []),
  ];
  const pool = new pg.Pool({
    connectionString: url.toString(),
    max: unbounded ? 1 : POOL_SIZE,
    connectionTimeoutMillis: t.connectMs,
    idleTimeoutMillis: t.poolIdleMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: t.keepAliveMs,
    ...(settings.length ? { options: settings.join(' ') } : {}),
  });
  const connectionLost = (error: Error) => onConnectionError?.(error);
  // An idle connection's end reaches the pool; a connection in use reports it on itself (and fails its query).
  pool.on('error', connectionLost);
  pool.on('connect', (client) => {
    client.on('error', connectionLost);
    boundAnswers(client, unbounded ? undefined : t.answerMs, statements);
  });
  if (!unbounded) dropStaleOnCheckout(pool, t.poolIdleMs);
  return pool;
}

/**
 * A connection idle in the pool past `poolIdleMs` may already be ended by PostgreSQL's idle timeout, its notice still
 * unread while the event loop was busy; the pool's idle timer, which should have closed it, runs late then too. So the
 * clock decides at checkout: such a connection is closed and another taken (at most the pool's size, then a new one).
 */
function dropStaleOnCheckout(pool: pg.Pool, poolIdleMs: number): void {
  const releasedAt = new WeakMap<pg.PoolClient, number>();
  pool.on('release', (_error: Error | undefined, client: pg.PoolClient) => releasedAt.set(client, Date.now()));
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const fresh = async () => {
    for (;;) {
      const client = await connect();
      if (Date.now() - (releasedAt.get(client) ?? Date.now()) < poolIdleMs) return client;
      client.release(true);
    }
  };
  // Kysely takes the promise; pg's own pool.query passes a callback.
  pool.connect = ((callback?: (error: Error | undefined, client?: pg.PoolClient, done?: () => void) => void) => {
    if (!callback) return fresh();
    fresh().then(
      (client) => callback(undefined, client, () => client.release()),
      (error: Error) => callback(error),
    );
  }) as typeof pool.connect;
}

/**
 * Every statement a pooled connection sends passes through its `query`: counted there (tests and the bench read the
 * count), and given `answerMs` to be answered. pg's own `query_timeout` fails the statement but leaves it pending on
 * the connection, which goes back to the pool and makes the next request wait behind it; here the connection is
 * destroyed instead, so its statement fails, the pool drops it and opens a fresh one.
 */
function boundAnswers(
  client: pg.PoolClient,
  answerMs: number | undefined,
  statements: StatementCounter | undefined,
): void {
  if (answerMs === undefined && !statements) return;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    if (statements) statements.count++;
    const pending = query(...args);
    if (answerMs !== undefined && pending instanceof Promise) {
      const timer = setTimeout(() => giveUp(client, answerMs), answerMs);
      pending.then(
        () => clearTimeout(timer),
        () => clearTimeout(timer),
      );
    }
    return pending;
  }) as typeof client.query;
}

function giveUp(client: pg.PoolClient, answerMs: number): void {
  const error = Object.assign(new Error(`PostgreSQL did not answer within ${answerMs} ms; the connection was closed`), {
    code: 'ETIMEDOUT',
  });
  (client as unknown as { connection: { stream: Socket } }).connection.stream.destroy(error);
}
