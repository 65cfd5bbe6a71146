import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Plugin } from 'vite';
import { partnerApi, type PartnerApi } from './partner-api.ts';
import { sampleApplication } from './sample-application.ts';

type Handler = (api: PartnerApi, body: Record<string, string>) => Promise<{ status: number; body: unknown }>;

/** Merchant keys the demo received, kept in memory: a real partner stores them in its own database. */
const merchantKeys = new Map<string, string>();

const routes: Record<string, Handler> = {
  'GET /demo-api/config': async (api) => ({
    status: 200,
    body: { result: true, data: { serviceUrl: api.serviceUrl, publicKey: process.env.PAYKIT_DEMO_PUBLIC_KEY ?? '' } },
  }),
  // What a merchant's server does for <transactions-table>: mint a short-lived, read-only token.
  'POST /demo-api/widget-session': async (api) => api.call('POST', '/widgets/sessions', { merchant_key: process.env.PAYKIT_DEMO_MERCHANT_KEY }),
  'GET /demo-api/merchants': async (api) => {
    const answer = await api.call('GET', '/merchant');
    if (answer.status !== 200) return answer;
    const merchants = await Promise.all(
      answer.body.data.map(async (merchant: { merchant_id: string }) => {
        const key = merchantKeys.get(merchant.merchant_id);
        const status = key ? (await api.call('POST', '/auth/get-onboarding-status', { merchant_key: key })).body.data?.merchantStatus : undefined;
        return { ...merchant, status: status ?? 'not known to the demo (key arrives by webhook)' };
      }),
    );
    return { status: 200, body: { result: true, data: merchants } };
  },
  'POST /demo-api/onboard': async (api, body) => {
    const answer = await api.call('POST', '/onboarding', sampleApplication(body.business_name || 'Corner Bakery'));
    if (answer.status !== 200) return answer;
    const { merchant_key, ...visible } = answer.body.data;
    merchantKeys.set(visible.merchant_id, merchant_key);
    // The merchant key stays on the server, like the client secret.
    return { status: 200, body: { ...answer.body, data: visible } };
  },
  'POST /demo-api/onboarding-link': async (api, body) => {
    const session = await api.call('GET', '/auth/create-session');
    if (session.status !== 200) return session;
    return api.call('POST', `/auth/onboarding/${session.body.data.sessionToken}`, {
      company_id: 'demo-company',
      BusinessInfo: { business_name: body.business_name || 'Hosted Bakery', business_country: 'US' },
    });
  },
  'POST /demo-api/approve': async (api, body) => api.call('POST', '/approve-merchant', { merchant_id: body.merchant_id }),
};

async function readJson(request: IncomingMessage): Promise<Record<string, string>> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text ? JSON.parse(text) : {};
}

/** The demo's small merchant back end, mounted into Vite's dev server. */
export function demoBackend(): Plugin {
  return {
    name: 'paykit-demo-backend',
    configureServer(server) {
      const api = partnerApi(
        process.env.PAYKIT_SERVICE_URL ?? 'http://localhost:4010',
        process.env.PAYKIT_CLIENT_ID ?? '',
        process.env.PAYKIT_CLIENT_SECRET ?? '',
      );
      if (process.env.PAYKIT_DEMO_MERCHANT_ID && process.env.PAYKIT_DEMO_MERCHANT_KEY) {
        merchantKeys.set(process.env.PAYKIT_DEMO_MERCHANT_ID, process.env.PAYKIT_DEMO_MERCHANT_KEY);
      }
      server.middlewares.use(async (request: IncomingMessage, response: ServerResponse, next: () => void) => {
        const handler = routes[`${request.method} ${request.url?.split('?')[0]}`];
        if (!handler) return next();
        try {
          const answer = await handler(api, await readJson(request));
          response.statusCode = answer.status;
          response.setHeader('content-type', 'application/json');
          response.end(JSON.stringify(answer.body));
        } catch (error) {
          response.statusCode = 502;
          response.setHeader('content-type', 'application/json');
          response.end(JSON.stringify({ result: false, message: `The demo back end could not reach the service: ${String(error)}` }));
        }
      });
    },
  };
}
