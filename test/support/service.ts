import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { Clock } from '../../server/platform/clock.ts';
import { DEFAULT_NETWORK, type Config, type Environment, type NetworkSettings } from '../../server/platform/config.ts';
import { createClient, type NewClientCredentials } from '../../server/services/clients.ts';
import type { Store } from '../../server/store/store.ts';
import { openTestStore, type TestDatabase } from './databases.ts';
import type { StatementCounter } from '../../server/store/open.ts';
import { send, type Answer, type SendOptions } from './http.ts';
import { createDeliverer } from '../../server/webhooks/deliver.ts';
import { Dispatcher } from '../../server/webhooks/dispatcher.ts';
import { publishDocument } from '../../server/openapi/publish.ts';
import { DeclaredAnswers } from './openapi.ts';

/** One per environment and test process: the document is the same for every service of an environment. */
const declaredAnswers = new Map<Environment, DeclaredAnswers>();

export interface TestService {
  baseUrl: string;
  store: Store;
  /** PostgreSQL: the schema the service's store works in, for a test that opens a second store beside it. */
  schema: string | undefined;
  clock: Clock;
  app: FastifyInstance;
  /** The webhook dispatcher, when the service was started with `webhooks`. */
  dispatcher: Dispatcher | undefined;
  /** A client (partner) created for this service. */
  client: NewClientCredentials;
  /**
   * Calls `/api/v1{path}` as `client` unless `auth` says otherwise. Like `request`, it fails when the answer is not
   * one the OpenAPI document declares for the operation (its status, and its body's schema).
   */
  api(method: string, path: string, options?: SendOptions): Promise<Answer>;
  /**
   * Any path of the service, without credentials unless given. `api` and `request` keep the cookies the service sets
   * and send them back, as one browser would (the hosted onboarding form's); a `cookie` header given replaces them.
   */
  request(method: string, path: string, options?: SendOptions): Promise<Answer>;
  newClient(name?: string): Promise<NewClientCredentials>;
  close(): Promise<void>;
}

/** The real service on a loopback port, over a fresh database. */
export interface WebhookOptions {
  scheduleSeconds?: number[];
  timeoutMs?: number;
  pollMs?: number;
  /** Deliver to loopback even in production (the test's receiver runs on this machine). */
  allowPrivate?: boolean;
}

export async function startService(
  options: {
    database?: TestDatabase;
    /** An embedded database kept in this folder (so a test may open it beside the service) instead of a fresh one. */
    dataDir?: string;
    environment?: Environment;
    webhooks?: WebhookOptions;
    /** The host of the links the service writes (PAYKIT_PUBLIC_URL), when it should differ from the address it is called at. */
    publicHostname?: string;
    /** Proxies trusted, timeouts and the connection cap, where a test needs other than the defaults. */
    network?: Partial<NetworkSettings>;
    /** The platform's smallest payment in minor units (PAYKIT_MINIMUM_PAYMENT), where a test sets its own. */
    minimumPayment?: number;
    /** PostgreSQL: counts the statements the service sends (round trips). */
    statements?: StatementCounter;
  } = {},
): Promise<TestService> {
  const {
    store,
    close: closeStore,
    schema,
  } = await openTestStore(
    options.dataDir ? 'sqlite' : (options.database ?? 'sqlite'),
    options.dataDir,
    options.statements,
  );
  const clock = new Clock();
  const config: Config = {
    port: 0,
    host: '127.0.0.1',
    environment: options.environment ?? 'sandbox',
    databaseUrl: undefined,
    dataDir: 'memory',
    publicUrl: 'http://127.0.0.1',
    seedClient: undefined,
    webhooks: {
      timeoutMs: options.webhooks?.timeoutMs ?? 2000,
      scheduleSeconds: options.webhooks?.scheduleSeconds ?? [1, 2],
      pollMs: options.webhooks?.pollMs ?? 50,
      dispatch: options.webhooks !== undefined,
    },
    network: { ...DEFAULT_NETWORK, ...options.network },
    ...(options.minimumPayment === undefined ? {} : { minimumPayment: options.minimumPayment }),
  };
  const deliverer = options.webhooks
    ? createDeliverer({
        timeoutMs: config.webhooks.timeoutMs,
        allowPrivate: options.webhooks.allowPrivate ?? config.environment === 'sandbox',
      })
    : undefined;
  const dispatcher = deliverer && new Dispatcher({ store, clock, deliverer, ...config.webhooks });
  const app = await buildApp({ store, clock, config, dispatcher });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;
  // Links the service writes must point at this very port.
  config.publicUrl = `http://${options.publicHostname ?? '127.0.0.1'}:${port}`;
  const newClient = (name = 'Test partner') => createClient(store, name, clock.now());
  const client = await newClient();
  dispatcher?.start();
  const auth = { id: client.clientId, secret: client.secretKey };
  const declared =
    declaredAnswers.get(config.environment) ?? (await DeclaredAnswers.of(publishDocument(app.swagger())));
  declaredAnswers.set(config.environment, declared);
  const jar = new CookieJar();
  const checked = async (method: string, path: string, sendOptions: SendOptions) => {
    const answer = await jar.around(path, sendOptions, (withCookies) => send(baseUrl, method, path, withCookies));
    const problem = declared.problemsWith(method, path, answer);
    if (problem) throw new Error(`An answer the OpenAPI document does not declare: ${problem}`);
    return answer;
  };
  return {
    baseUrl,
    store,
    schema,
    clock,
    app,
    dispatcher,
    client,
    api: (method, path, sendOptions = {}) => checked(method, `/api/v1${path}`, { auth, ...sendOptions }),
    request: (method, path, sendOptions = {}) => checked(method, path, sendOptions),
    newClient,
    close: async () => {
      await app.close();
      await dispatcher?.stop();
      deliverer?.close();
      await closeStore();
    },
  };
}

/** The cookies one browser would keep for the service: by name and path, sent to the paths under theirs. */
class CookieJar {
  private readonly cookies = new Map<string, { path: string; pair: string }>();

  async around(path: string, options: SendOptions, send: (options: SendOptions) => Promise<Answer>): Promise<Answer> {
    const pathname = new URL(path, 'http://x').pathname;
    const sent = [...this.cookies.values()].filter(
      (cookie) => pathname === cookie.path || pathname.startsWith(`${cookie.path.replace(/\/$/, '')}/`),
    );
    const given = options.headers?.cookie !== undefined;
    const answer = await send(
      given || sent.length === 0
        ? options
        : { ...options, headers: { ...options.headers, cookie: sent.map((cookie) => cookie.pair).join('; ') } },
    );
    const setCookie = answer.headers['set-cookie'];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const cookiePath = attributes.find((attribute) => /^path=/i.test(attribute))?.slice(5) ?? '/';
      const key = `${pair.split('=')[0]} ${cookiePath}`;
      if (attributes.some((attribute) => /^max-age=(0|-)/i.test(attribute))) this.cookies.delete(key);
      else this.cookies.set(key, { path: cookiePath, pair });
    }
    return answer;
  }
}
