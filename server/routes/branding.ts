import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../plugins/deps.ts';
import { failures } from '../schemas/envelope.ts';
import { BRANDING_BODY_LIMIT_BYTES, ClientBrandingAnswer, ClientBrandingBody } from '../schemas/branding.ts';
import { clientBranding, updateClientBranding } from '../services/branding.ts';

const tags = ['Branding'];

/** A platform's brand on its merchants' hosted pages, set once with its own credentials; only its own. */
export const brandingRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { clock, config }) => {
  app.put(
    '/client/branding',
    {
      bodyLimit: BRANDING_BODY_LIMIT_BYTES,
      schema: {
        operationId: 'updateClientBranding',
        tags,
        summary: "Set the platform's name, colour and logo on its merchants' hosted pages",
        body: ClientBrandingBody,
        response: { 200: ClientBrandingAnswer, ...failures },
      },
    },
    async (request) =>
      request.unit.transaction(async (tx) => ({
        result: true,
        message: 'Branding updated.',
        data: await updateClientBranding(tx, request.client.id, request.body, clock.now(), config.publicUrl),
      })),
  );

  app.get(
    '/client/branding',
    {
      schema: {
        operationId: 'getClientBranding',
        tags,
        summary: "Read the platform's branding",
        response: { 200: ClientBrandingAnswer, ...failures },
      },
    },
    async (request) => ({
      result: true,
      message: 'Branding retrieved.',
      data: await clientBranding(request.unit.store, request.client.id, config.publicUrl),
    }),
  );
};
