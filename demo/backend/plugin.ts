import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Plugin } from 'vite';
import { listen, PaykitClient } from 'paykit/client';
import { HoldBook } from './holds.ts';
import { BadRequest, failure, routes, type DemoContext, type DemoMerchant } from './routes.ts';
import { WebhookInbox } from './webhook-inbox.ts';
import { checkoutPage } from './checkout-page.ts';
import { staticChrome } from './static-chrome.ts';

export interface DemoBackendOptions {
  serviceUrl: string;
  clientId: string;
  secretKey: string;
  merchant: DemoMerchant;
}

const BODY_LIMIT = 64 * 1024;

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT) throw new BadRequest('The body is larger than 64 KiB.');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function parseJson(raw: Buffer): Record<string, unknown> {
  if (raw.length === 0) return {};
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new BadRequest('The body is not JSON.');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new BadRequest('The body must be a JSON object.');
  return body as Record<string, unknown>;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.statusCode = status;
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify(body));
}

/**
 * The demo's small merchant back end, mounted into Vite's dev server under /demo-api: it holds the client secret
 * and calls the service through `paykit/client`, as a merchant's or partner's server would. When Vite listens, it
 * has the client's events forwarded to its own /demo-api/webhooks by `listen` (what `npx paykit listen` runs), so
 * the client's registered webhook URL, if any, stays the partner's own.
 */
export function demoBackend(options: DemoBackendOptions): Plugin {
  const paykit = new PaykitClient({
    clientId: options.clientId,
    secretKey: options.secretKey,
    baseUrl: options.serviceUrl,
  });
  const inbox = new WebhookInbox();
  const endpoint = { url: '', listening: false, error: '' };
  const context: DemoContext = {
    paykit,
    serviceUrl: options.serviceUrl,
    merchant: options.merchant,
    holds: new HoldBook(),
    merchantKeys: new Map([[options.merchant.merchant_id, options.merchant.merchant_key]]),
  };
  inbox.onDelivery(({ event }) => {
    if (!event) return;
    context.holds.apply(event);
    if (event.event_type === 'merchant.onboarding')
      context.merchantKeys.set(event.data.merchant_id, event.data.merchant_key);
  });

  return {
    name: 'paykit-demo-backend',
    transformIndexHtml: (html, { path }) => staticChrome(html, path, options.serviceUrl),
    configureServer(server) {
      server.httpServer?.once('listening', async () => {
        const { address, port } = server.httpServer!.address() as AddressInfo;
        const host = address.includes(':') ? `[${address}]` : address;
        endpoint.url = `http://${host}:${port}/demo-api/webhooks`;
        const failed = (error: unknown) => {
          endpoint.listening = false;
          endpoint.error = (error as Error).message;
          server.config.logger.error(`The demo cannot hear the client's events: ${endpoint.error}`);
        };
        try {
          const listener = await listen(paykit, { forwardTo: endpoint.url });
          inbox.useSecret(listener.secret);
          endpoint.listening = true;
          listener.done.catch(failed);
          server.httpServer!.once('close', () => void listener.stop());
        } catch (error) {
          failed(error);
        }
      });

      server.middlewares.use(async (request: IncomingMessage, response: ServerResponse, next: () => void) => {
        const route = `${request.method} ${request.url?.split('?')[0]}`;
        if (route === 'GET /checkout.html') {
          try {
            const page = await checkoutPage(server, request.url!, {
              serviceUrl: options.serviceUrl,
              publicKey: options.merchant.public_key,
            });
            response.setHeader('content-type', 'text/html; charset=utf-8');
            return response.end(page);
          } catch (error) {
            server.ssrFixStacktrace(error as Error);
            response.statusCode = 500;
            return response.end(`The server-rendered page failed: ${(error as Error).message}`);
          }
        }
        if (route === 'GET /demo-api/webhooks/stream') return inbox.stream(request, response);
        if (route === 'GET /demo-api/webhook-endpoint')
          return send(response, 200, { result: true, message: 'ok', data: endpoint });
        if (route === 'GET /demo-api/webhooks')
          return send(response, 200, { result: true, message: 'ok', data: inbox.list() });
        const handler = routes[route];
        if (route !== 'POST /demo-api/webhooks' && !handler) return next();
        try {
          const raw = await readBody(request);
          if (route === 'POST /demo-api/webhooks') {
            const { status, delivery } = inbox.receive(raw, request.headers);
            return send(
              response,
              status,
              status < 300 ? { result: true, message: 'received' } : { result: false, message: delivery.error },
            );
          }
          const answer = await handler!(context, parseJson(raw));
          send(response, answer.status, answer.body);
        } catch (error) {
          const answer = failure(error);
          send(response, answer.status, answer.body);
        }
      });
    },
  };
}
