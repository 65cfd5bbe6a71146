import { DEFAULT_SCHEDULE_SECONDS } from './webhooks/retry-schedule.ts';

export type Environment = 'sandbox' | 'production';

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
}

/** Reads the contract's environment variables; a wrong value stops the start with a message that says why. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = env.PORT === undefined || env.PORT === '' ? 4010 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, not "${env.PORT}"`);
  const environment = (env.PAYKIT_ENV || 'sandbox') as Environment;
  if (environment !== 'sandbox' && environment !== 'production') {
    throw new Error(`PAYKIT_ENV must be "sandbox" or "production", not "${env.PAYKIT_ENV}"`);
  }
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) throw new Error('DATABASE_URL must start with postgres://');
  const publicUrl = (env.PAYKIT_PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicUrl);
  } catch {
    throw new Error(`PAYKIT_PUBLIC_URL must be an origin such as https://pay.example.com, not "${env.PAYKIT_PUBLIC_URL}"`);
  }
  const id = env.PAYKIT_CLIENT_ID;
  const secret = env.PAYKIT_CLIENT_SECRET;
  if (Boolean(id) !== Boolean(secret)) throw new Error('set both PAYKIT_CLIENT_ID and PAYKIT_CLIENT_SECRET, or neither');
  const timeoutMs = Number(env.PAYKIT_WEBHOOK_TIMEOUT_MS || 10_000);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 60_000) throw new Error('PAYKIT_WEBHOOK_TIMEOUT_MS must be 100 to 60000');
  const pollMs = Number(env.PAYKIT_WEBHOOK_POLL_MS || 1000);
  if (!Number.isInteger(pollMs) || pollMs < 10 || pollMs > 60_000) throw new Error('PAYKIT_WEBHOOK_POLL_MS must be 10 to 60000');
  const scheduleSeconds = env.PAYKIT_WEBHOOK_RETRY_SCHEDULE ? env.PAYKIT_WEBHOOK_RETRY_SCHEDULE.split(',').map((s) => Number(s.trim())) : DEFAULT_SCHEDULE_SECONDS;
  if (scheduleSeconds.some((s) => !(s > 0))) throw new Error('PAYKIT_WEBHOOK_RETRY_SCHEDULE must be seconds separated by commas, e.g. "5,300,1800"');
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
  };
}
