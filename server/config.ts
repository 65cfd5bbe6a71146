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
  return {
    port,
    host: env.HOST || '0.0.0.0',
    environment,
    databaseUrl,
    dataDir: env.PAYKIT_DATA_DIR || '.paykit',
    publicUrl,
    seedClient: id && secret ? { id, secret } : undefined,
  };
}
