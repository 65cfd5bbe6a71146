import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../plugins/deps.ts';
import { failures } from '../schemas/envelope.ts';
import {
  WidgetSessionAnswer,
  WidgetSessionBody,
  WidgetSettingsBody,
  WidgetSettingsPutAnswer,
} from '../schemas/widgets.ts';
import { merchantByKey } from '../services/merchant-access.ts';
import { createWidgetSession, updateWidgetSettings } from '../services/widgets.ts';
import { BRANDING_BODY_LIMIT_BYTES } from '../schemas/branding.ts';

const tags = ['Widgets'];

/** What a merchant's server does for its widgets, with the client's credentials. */
export const widgetAdminRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { clock, config }) => {
  app.post(
    '/widgets/sessions',
    {
      schema: {
        operationId: 'createWidgetSession',
        tags,
        summary: 'Mint a session token for the transactions table (15 minutes): read-only unless features are granted',
        body: WidgetSessionBody,
        response: { 200: WidgetSessionAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = await merchantByKey(request.unit.store, request.client.id, request.body.merchant_key);
      return request.unit.transaction(async (tx) => ({
        result: true,
        message: 'Widget session created.',
        data: await createWidgetSession(tx, merchant, request.body.features, clock.now()),
      }));
    },
  );

  app.put(
    '/widgets/',
    {
      bodyLimit: BRANDING_BODY_LIMIT_BYTES,
      schema: {
        operationId: 'updateWidgetSettings',
        tags,
        summary: 'Set what the widgets show and the pages allowed to use them',
        body: WidgetSettingsBody,
        response: { 200: WidgetSettingsPutAnswer, ...failures },
      },
    },
    async (request) => {
      const { merchant_key, ...settings } = request.body;
      const merchant = await merchantByKey(request.unit.store, request.client.id, merchant_key);
      return request.unit.transaction(async (tx) => ({
        result: true,
        message: 'Widget settings updated.',
        data: await updateWidgetSettings(tx, merchant, settings, clock.now(), config.publicUrl),
      }));
    },
  );
};
