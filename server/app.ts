import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from './plugins/deps.ts';
import { AfterAnswer } from './plugins/after-answer.ts';
import { provideRequestUnits } from './plugins/request-unit.ts';
import type { Store } from './store/store.ts';
import { DEFAULT_NETWORK } from './platform/config.ts';
import { BODY_LIMIT_BYTES, registerBodyParsers } from './plugins/body-parsers.ts';
import {
  STORAGE_RETRY_AFTER_SECONDS,
  clientErrorHandler,
  frameworkErrors,
  registerEnvelopeErrors,
} from './plugins/envelope-errors.ts';
import { answerUnmetExpectations } from './plugins/expectation-failed.ts';
import { shareConnections } from './plugins/connection-shares.ts';
import { dropUnreadBodies } from './plugins/unread-bodies.ts';
import { runHandlersTogether } from './plugins/handlers-together.ts';
import { registerStrictValidation } from './plugins/validation.ts';
import { requireClient } from './plugins/basic-auth.ts';
import { honourIdempotencyKeys } from './plugins/idempotency.ts';
import { onboardingRoutes } from './routes/onboarding.ts';
import { merchantRoutes } from './routes/merchants.ts';
import { customerRoutes } from './routes/customers.ts';
import { sandboxRoutes } from './routes/sandbox.ts';
import { requestRoutes } from './routes/requests.ts';
import { transactionRoutes } from './routes/transactions.ts';
import { preauthRoutes } from './routes/preauth.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { widgetRoutes } from './routes/widgets.ts';
import { widgetAdminRoutes } from './routes/widget-admin.ts';
import { brandingRoutes } from './routes/branding.ts';
import { transactionExportRoutes } from './routes/transaction-export.ts';
import { payoutRoutes } from './routes/payouts.ts';
import { disputeRoutes } from './routes/disputes.ts';
import { scriptTagRoute } from './routes/script-tag.ts';
import { pageRoutes } from './routes/pages/index.ts';
import { operatorRoutes } from './routes/operator.ts';
import { requireOperator } from './plugins/operator-auth.ts';
import { openApiDocument } from './openapi/document.ts';
import { describeOperation } from './openapi/operations.ts';
import { publishDocument } from './openapi/publish.ts';
import { servedDocument } from './openapi/served.ts';
import { sendFile } from './static/served-file.ts';

const API_PREFIX = '/api/v1';

export interface AppOptions extends Omit<Deps, 'afterAnswer'> {
  store: Store;
  logger?: FastifyServerOptions['logger'];
  /** A logger made beforehand (pino), so that parts started before the app log through it too. */
  loggerInstance?: FastifyBaseLogger;
}

/** Builds the service: plugins, error handling, the API under /api/v1 and the hosted pages. */
export async function buildApp({
  logger = false,
  loggerInstance,
  store,
  ...given
}: AppOptions): Promise<FastifyInstance> {
  const deps: Deps = { ...given, afterAnswer: new AfterAnswer() };
  const network = deps.config.network ?? DEFAULT_NETWORK;
  const app = Fastify({
    ...(loggerInstance ? { loggerInstance } : { logger }),
    bodyLimit: BODY_LIMIT_BYTES,
    // Off unless proxies are named: otherwise any caller could choose its address, and so its limits.
    trustProxy: network.trustProxy.length > 0 ? network.trustProxy : false,
    // A socket silent this long is closed, whatever it is doing.
    connectionTimeout: network.requestTimeoutMs,
    requestTimeout: network.requestTimeoutMs,
    keepAliveTimeout: network.keepAliveTimeoutMs,
    http: {
      headersTimeout: network.headersTimeoutMs,
      // Node enforces the headers and request timeouts only when it looks (every 30 s by default), so a slow
      // sender could outlive its bound by that much; looking more often makes the bound hold.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(network.headersTimeoutMs / 4))),
    },
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.server.maxConnections = network.maxConnections;
  shareConnections(app.server, network.maxConnectionsPerAddress, network.trustProxy);
  // A callback hook: every request passes here, and most have no work waiting (no promise made for them).
  app.addHook('onResponse', (request, reply, done) => {
    deps.afterAnswer.answered(request, reply.statusCode < 400);
    done();
  });
  app.addHook('onClose', () => deps.afterAnswer.finished());
  answerUnmetExpectations(app.server);
  dropUnreadBodies(app);

  registerEnvelopeErrors(app);
  provideRequestUnits(app, store);
  runHandlersTogether(app);
  registerStrictValidation(app);
  // A request that wrote events wakes the dispatcher, which then looks at once instead of at its next poll.
  if (deps.dispatcher) {
    const dispatcher = deps.dispatcher;
    const written = store.outboxWritten;
    let seen = written.count;
    app.addHook('onResponse', (_request, _reply, done) => {
      if (written.count !== seen) {
        seen = written.count;
        dispatcher.wake();
      }
      done();
    });
  }
  await registerBodyParsers(app);
  await app.register(swagger, { openapi: openApiDocument(deps.config), transform: describeOperation });
  const openApi = servedDocument(() => publishDocument(app.swagger()));

  // Readiness: 200 while the database answers, 503 (and the process still answering) while it does not.
  app.get('/health', { schema: { hide: true } }, async (_request, reply) => {
    const data = { environment: deps.config.environment, database: 'reachable' };
    if (await store.reachable()) return { result: true, message: 'ok', data };
    return reply
      .code(503)
      .header('retry-after', String(STORAGE_RETRY_AFTER_SECONDS))
      .send({
        result: false,
        message: 'The database does not answer.',
        code: 'service_error',
        data: { ...data, database: 'unreachable' },
      });
  });

  await app.register(
    async (api) => {
      api.get('/openapi.json', { schema: { hide: true } }, async (request, reply) =>
        sendFile(request, reply, await openApi.file(), {
          contentType: 'application/json; charset=utf-8',
          cacheControl: 'no-cache',
        }),
      );
      await api.register(widgetRoutes, deps);
      await api.register(async (authenticated) => {
        requireClient(authenticated, store);
        honourIdempotencyKeys(authenticated, deps.clock);
        await authenticated.register(onboardingRoutes, deps);
        await authenticated.register(merchantRoutes, deps);
        await authenticated.register(customerRoutes, deps);
        await authenticated.register(requestRoutes, deps);
        await authenticated.register(transactionRoutes, deps);
        await authenticated.register(transactionExportRoutes, deps);
        await authenticated.register(payoutRoutes, deps);
        await authenticated.register(disputeRoutes, deps);
        await authenticated.register(preauthRoutes, deps);
        await authenticated.register(webhookRoutes, deps);
        await authenticated.register(widgetAdminRoutes, deps);
        await authenticated.register(brandingRoutes, deps);
        await authenticated.register(sandboxRoutes, deps);
      });
    },
    { prefix: API_PREFIX },
  );

  await app.register(
    async (operators) => {
      requireOperator(operators, store);
      await operators.register(operatorRoutes, deps);
    },
    { prefix: '/operator/v1' },
  );

  await app.register(pageRoutes, { ...deps, openApi });
  await app.register(scriptTagRoute);
  return app;
}
