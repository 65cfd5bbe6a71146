import { pino } from 'pino';
import { readConfig } from './platform/config.ts';
import { openStore } from './store/open.ts';
import { Clock } from './platform/clock.ts';
import { buildApp } from './app.ts';
import { ensureClient } from './services/clients.ts';
import { requestLogger } from './plugins/request-log.ts';
import { createDeliverer } from './webhooks/deliver.ts';
import { Dispatcher } from './webhooks/dispatcher.ts';
import { CLOCK_OFFSET_SETTING } from './store/settings.ts';
import { Housekeeping } from './services/housekeeping.ts';
import { PayoutRunner } from './services/payout-runner.ts';
import { RepeatedErrorLog } from './plugins/repeated-errors.ts';

/** Starts the service as the contract describes: environment in, listening port out, graceful close on signals. */
async function main(): Promise<void> {
  const config = readConfig();
  const log = pino(requestLogger(process.env.LOG_LEVEL ?? 'info'));
  const connections = new RepeatedErrorLog(log.child({ part: 'database' }));
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    onConnectionError: (error) =>
      connections.report('connection', error, 'the database ended a connection; the pool opens another when needed'),
  });
  const clock = new Clock();
  clock.restore(Number((await store.settings.get(CLOCK_OFFSET_SETTING)) ?? 0));
  if (config.seedClient) await ensureClient(store, config.seedClient.id, config.seedClient.secret, clock.now());

  const deliverer = createDeliverer({
    timeoutMs: config.webhooks.timeoutMs,
    allowPrivate: config.environment === 'sandbox',
  });
  // A process may serve the API only (PAYKIT_WEBHOOK_DISPATCHER=off) while others deliver (docs/scaling.md).
  const dispatcher = config.webhooks.dispatch
    ? new Dispatcher({ store, clock, deliverer, ...config.webhooks, log: log.child({ part: 'webhooks' }) })
    : undefined;
  const housekeeping = new Housekeeping({ store, clock, log: log.child({ part: 'housekeeping' }) });
  const payouts = new PayoutRunner({ store, clock, log: log.child({ part: 'payouts' }) });
  const app = await buildApp({ store, clock, config, dispatcher, loggerInstance: log });
  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'closing');
    await app.close();
    await dispatcher?.stop();
    housekeeping.stop();
    await payouts.stop();
    deliverer.close();
    await store.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void close('SIGINT'));
  process.once('SIGTERM', () => void close('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  dispatcher?.start();
  housekeeping.start();
  payouts.start();
  const storage = config.databaseUrl
    ? 'PostgreSQL'
    : config.dataDir === 'memory'
      ? 'memory (nothing kept)'
      : `SQLite in ${config.dataDir}`;
  app.log.info(`Paykit ${config.environment} service on ${config.publicUrl} (storage: ${storage})`);
}

main().catch((error: unknown) => {
  console.error(`Paykit could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
