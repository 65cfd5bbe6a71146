import { readFileSync } from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';
import type { Deps } from '../../plugins/deps.ts';
import type { ServedDocument } from '../../openapi/served.ts';
import { homePage } from '../../views/home.ts';
import { onboardingPages } from './onboarding.ts';
import { portalPages } from './portal.ts';
import { docsPages } from './docs.ts';
import { payPages } from './pay.ts';
import { sendPage } from './send.ts';
import { brandLogoRoute } from './brand-logos.ts';
import { receiptPages } from './receipts.ts';

/** Hosted pages: onboarding form, pay page and its QR code, sandbox test portal, API reference. */
export const pageRoutes: FastifyPluginAsync<Deps & { openApi: ServedDocument }> = async (app, deps) => {
  // Browsers ask every page's origin for it: a small card in the pages' accent, rather than a 404 in every console.
  const favicon = readFileSync(new URL('../../static/favicon.ico', import.meta.url));
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('image/x-icon').header('cache-control', 'public, max-age=86400').send(favicon),
  );
  app.get('/', { schema: { hide: true } }, async (_request, reply) =>
    sendPage(reply, homePage(deps.config.environment)),
  );
  await app.register(onboardingPages, deps);
  await app.register(payPages, deps);
  await app.register(brandLogoRoute, deps);
  await app.register(portalPages, deps);
  await app.register(docsPages, deps);
  await app.register(receiptPages, deps);
};
