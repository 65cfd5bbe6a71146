import type { Config } from './config.ts';

/** The OpenAPI document's frame; @fastify/swagger adds every route's schemas to it. */
export function openApiDocument(config: Config) {
  return {
    openapi: '3.0.3',
    info: {
      title: 'Paykit payment service',
      version: '1.0.0',
      description:
        'Onboard merchants, store customers, ask customers to pay, authorize, capture, refund and void, and hear about ' +
        'it through signed webhooks. Every call uses HTTP Basic authentication: client id and secret key.',
    },
    servers: [{ url: `${config.publicUrl}/api/v1`, description: config.environment }],
    components: { securitySchemes: { basicAuth: { type: 'http' as const, scheme: 'basic' } } },
    security: [{ basicAuth: [] }],
  };
}
