import { isIP } from 'node:net';
import { DEFAULT_SCHEDULE_SECONDS } from '../webhooks/retry-schedule.ts';

export type Environment = 'sandbox' | 'production';

/**
 * The smallest payment a platform takes by default, in minor units: 0.50, as Stripe's. Below it a card's fee (2.9% +
 * 0.30) takes most of the sale; a platform sets its own with PAYKIT_MINIMUM_PAYMENT.
 */
export const DEFAULT_MINIMUM_PAYMENT = 50;

/** PAYKIT_MINIMUM_PAYMENT as minor units: decimal text from 0.01 to 999999.99 ("0.50"), else null. */
function readMinimumPayment(text: string): number | null {
  const match = /^(\d{1,6})(?:\.(\d{1,2}))?$/.exec(text.trim());
  const minor = match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : 0;
  return minor > 0 ? minor : null;
}

export interface Config {
  port: number;
  host: string;
  environment: Environment;
  databaseUrl: string | undefined;
  dataDir: string;
  /** Origin written into pay links, onboarding links and QR links. */
  publicUrl: string;
  seedClient: { id: string; secret: string } | undefined;
  webhooks: { timeoutMs: number; scheduleSeconds: number[]; pollMs: number; dispatch: boolean };
  /** How callers reach the service; absent: `DEFAULT_NETWORK` (tests and the bench build apps without an environment). */
  network?: NetworkSettings;
  /** The smallest payment taken, in minor units; absent: `DEFAULT_MINIMUM_PAYMENT` (0.50). */
  minimumPayment?: number;
}

export interface NetworkSettings {
  /**
   * Addresses or CIDR ranges of the reverse proxies in front of the service. Empty: no proxy is trusted and the
   * caller is the connection's peer. When set, a request from one of them is taken to come from the address its
   * `X-Forwarded-For` names (the nearest one not itself a trusted proxy), for every limit and log.
   */
  trustProxy: string[];
  /** How long a connection may take to send a request's headers. */
  headersTimeoutMs: number;
  /** How long a whole request (headers and body) may take to arrive. */
  requestTimeoutMs: number;
  /** How long a connection may stay open, idle, between requests. */
  keepAliveTimeoutMs: number;
  /** Open connections beyond this are closed as they arrive. */
  maxConnections: number;
  /** Open connections one caller address (an IPv6 /64) may hold; trusted proxies are not counted. */
  maxConnectionsPerAddress: number;
}

export const DEFAULT_NETWORK: NetworkSettings = {
  trustProxy: [],
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  // Longer than the idle timeout of common proxies and load balancers (60 s), so that they, not the service, close
  // an idle connection: one closed by the service as the proxy reuses it would fail that request.
  keepAliveTimeoutMs: 72_000,
  // Below the usual limit of 1,024 open files, leaving room for the database's.
  maxConnections: 1000,
  // A tenth of the cap: one caller cannot shut the others out, and a busy office behind one NAT still gets a hundred.
  maxConnectionsPerAddress: 100,
};

/** Named ranges that `proxy-addr` (Fastify's trustProxy) understands besides addresses and CIDRs. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const prefix = Number(bits);
  return /^\d{1,3}$/.test(bits) && prefix <= (family === 4 ? 32 : 128);
}

function readTrustProxy(value: string | undefined): string[] {
  if (!value || value.trim() === '') return [];
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const wrong = entries.find((entry) => !isAddressOrRange(entry));
  if (wrong !== undefined) {
    throw new Error(
      `PAYKIT_TRUST_PROXY must list proxy addresses or CIDR ranges separated by commas (e.g. "10.0.0.0/8,127.0.0.1"), not "${wrong}"`,
    );
  }
  return entries;
}

function readWholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const text = env[name];
  const value = text === undefined || text === '' ? fallback : Number(text);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name} must be ${min} to ${max}`);
  return value;
}

function readNetwork(env: NodeJS.ProcessEnv): NetworkSettings {
  const network: NetworkSettings = {
    trustProxy: readTrustProxy(env.PAYKIT_TRUST_PROXY),
    headersTimeoutMs: readWholeNumber(env, 'PAYKIT_HEADERS_TIMEOUT_MS', DEFAULT_NETWORK.headersTimeoutMs, 100, 600_000),
    requestTimeoutMs: readWholeNumber(env, 'PAYKIT_REQUEST_TIMEOUT_MS', DEFAULT_NETWORK.requestTimeoutMs, 100, 600_000),
    keepAliveTimeoutMs: readWholeNumber(
      env,
      'PAYKIT_KEEP_ALIVE_TIMEOUT_MS',
      DEFAULT_NETWORK.keepAliveTimeoutMs,
      100,
      600_000,
    ),
    maxConnections: readWholeNumber(env, 'PAYKIT_MAX_CONNECTIONS', DEFAULT_NETWORK.maxConnections, 1, 1_000_000),
    maxConnectionsPerAddress: readWholeNumber(
      env,
      'PAYKIT_MAX_CONNECTIONS_PER_ADDRESS',
      DEFAULT_NETWORK.maxConnectionsPerAddress,
      1,
      1_000_000,
    ),
  };
  if (network.headersTimeoutMs > network.requestTimeoutMs)
    throw new Error('PAYKIT_HEADERS_TIMEOUT_MS must not exceed PAYKIT_REQUEST_TIMEOUT_MS');
  return network;
}

/** Reads the contract's environment variables; a wrong value stops the start with a message that says why. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = env.PORT === undefined || env.PORT === '' ? 4010 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, not "${env.PORT}"`);
  const environment = (env.PAYKIT_ENV || 'sandbox') as Environment;
  if (environment !== 'sandbox' && environment !== 'production') {
    throw new Error(`PAYKIT_ENV must be "sandbox" or "production", not "${env.PAYKIT_ENV}"`);
  }
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new Error('DATABASE_URL must start with postgres://');
  const publicUrl = (env.PAYKIT_PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicUrl);
  } catch {
    throw new Error(
      `PAYKIT_PUBLIC_URL must be an origin such as https://pay.example.com, not "${env.PAYKIT_PUBLIC_URL}"`,
    );
  }
  const id = env.PAYKIT_CLIENT_ID;
  const secret = env.PAYKIT_CLIENT_SECRET;
  if (Boolean(id) !== Boolean(secret))
    throw new Error('set both PAYKIT_CLIENT_ID and PAYKIT_CLIENT_SECRET, or neither');
  const timeoutMs = Number(env.PAYKIT_WEBHOOK_TIMEOUT_MS || 10_000);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 60_000)
    throw new Error('PAYKIT_WEBHOOK_TIMEOUT_MS must be 100 to 60000');
  const pollMs = Number(env.PAYKIT_WEBHOOK_POLL_MS || 1000);
  if (!Number.isInteger(pollMs) || pollMs < 10 || pollMs > 60_000)
    throw new Error('PAYKIT_WEBHOOK_POLL_MS must be 10 to 60000');
  const scheduleSeconds = env.PAYKIT_WEBHOOK_RETRY_SCHEDULE
    ? env.PAYKIT_WEBHOOK_RETRY_SCHEDULE.split(',').map((s) => Number(s.trim()))
    : DEFAULT_SCHEDULE_SECONDS;
  if (scheduleSeconds.some((s) => !(s > 0)))
    throw new Error('PAYKIT_WEBHOOK_RETRY_SCHEDULE must be seconds separated by commas, e.g. "5,300,1800"');
  const minimumPayment = env.PAYKIT_MINIMUM_PAYMENT
    ? readMinimumPayment(env.PAYKIT_MINIMUM_PAYMENT)
    : DEFAULT_MINIMUM_PAYMENT;
  if (minimumPayment === null)
    throw new Error(
      `PAYKIT_MINIMUM_PAYMENT must be an amount such as "0.50" (0.01 to 999999.99), not "${env.PAYKIT_MINIMUM_PAYMENT}"`,
    );
  return {
    port,
    // A sandbox started on a laptop answers that laptop only; containers and servers say HOST=0.0.0.0 (docs/security.md).
    host: env.HOST || (environment === 'sandbox' ? '127.0.0.1' : '0.0.0.0'),
    environment,
    databaseUrl,
    dataDir: env.PAYKIT_DATA_DIR || '.paykit',
    publicUrl,
    seedClient: id && secret ? { id, secret } : undefined,
    webhooks: { timeoutMs, scheduleSeconds, pollMs, dispatch: env.PAYKIT_WEBHOOK_DISPATCHER !== 'off' },
    network: readNetwork(env),
    minimumPayment,
  };
}
