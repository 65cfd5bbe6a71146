import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../plugins/deps.ts';
import type { OnboardingApplication } from '../domain/onboarding.ts';
import { failures } from '../schemas/envelope.ts';
import {
  CreateSessionAnswer,
  CreateSessionQuery,
  HostedOnboardingAnswer,
  HostedOnboardingBody,
  OnboardingAnswer,
  OnboardingBody,
  OnboardingStatusAnswer,
  OnboardingStatusBody,
  RefreshOnboardingLinkBody,
  SessionTokenParams,
} from '../schemas/onboarding.ts';
import {
  createOnboardingSession,
  onboardingStatus,
  refreshOnboardingLink,
  startHostedOnboarding,
  submitApplication,
} from '../services/onboarding.ts';

const tags = ['Merchant onboarding'];

export const onboardingRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { clock, config }) => {
  app.post(
    '/onboarding',
    {
      schema: {
        operationId: 'onboardMerchant',
        tags,
        summary: 'Onboard a merchant with the whole application',
        body: OnboardingBody,
        response: { 200: OnboardingAnswer, ...failures },
      },
    },
    async (request) =>
      request.unit.transaction(async (tx) => {
        const { merchant, merchantKey } = await submitApplication(
          tx,
          request.client.id,
          request.body as OnboardingApplication,
          clock.now(),
        );
        return {
          result: true,
          message: 'Merchant onboarded; the application waits for review.',
          data: {
            businessname: merchant.business_name,
            email: merchant.email,
            merchant_key: merchantKey,
            public_key: merchant.public_key,
            merchant_id: merchant.id,
          },
        };
      }),
  );

  app.get(
    '/auth/create-session',
    {
      schema: {
        operationId: 'createOnboardingSession',
        tags,
        summary: 'Start a hosted onboarding: get a session token',
        querystring: CreateSessionQuery,
        response: { 200: CreateSessionAnswer, ...failures },
      },
    },
    async (request) => {
      const { token, expiresAt } = await request.unit.transaction((tx) =>
        createOnboardingSession(tx, request.client.id, clock.now()),
      );
      return {
        result: true,
        message: 'Session created.',
        data: {
          sessionToken: token,
          expires_at: expiresAt,
          ...(request.query.is_publickey ? { public_key: request.client.public_key } : {}),
        },
      };
    },
  );

  app.post(
    '/auth/onboarding/:session_token',
    {
      schema: {
        operationId: 'startHostedOnboarding',
        tags,
        summary: 'Create a merchant and the link to its hosted onboarding form',
        params: SessionTokenParams,
        body: HostedOnboardingBody,
        response: { 200: HostedOnboardingAnswer, ...failures },
      },
    },
    async (request) =>
      request.unit.transaction(async (tx) => ({
        result: true,
        message: 'Onboarding link created: send it to the merchant.',
        data: await startHostedOnboarding(
          tx,
          request.client.id,
          request.params.session_token,
          request.body ?? {},
          clock.now(),
          config.publicUrl,
        ),
      })),
  );

  app.post(
    '/auth/onboarding-link',
    {
      schema: {
        operationId: 'refreshOnboardingLink',
        tags,
        summary: 'A new onboarding link for a merchant still filling in the hosted form (its answers kept)',
        body: RefreshOnboardingLinkBody,
        response: { 200: HostedOnboardingAnswer, ...failures },
      },
    },
    async (request) => {
      const { merchant_id, refresh_url } = request.body;
      return request.unit.transaction(async (tx) => ({
        result: true,
        message: 'Onboarding link created: send the merchant to it.',
        data: await refreshOnboardingLink(
          tx,
          request.client.id,
          merchant_id,
          refresh_url,
          clock.now(),
          config.publicUrl,
        ),
      }));
    },
  );

  app.post(
    '/auth/get-onboarding-status',
    {
      schema: {
        operationId: 'getOnboardingStatus',
        tags,
        summary: "Read a merchant's onboarding status",
        body: OnboardingStatusBody,
        response: { 200: OnboardingStatusAnswer, ...failures },
      },
    },
    async (request) => {
      return {
        result: true,
        message: 'Onboarding status retrieved.',
        data: await onboardingStatus(request.unit.store, request.client.id, request.body.merchant_key),
      };
    },
  );
};
