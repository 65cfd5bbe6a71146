import type { FastifyPluginAsync } from 'fastify';
import type { Deps } from '../../deps.ts';

/** Hosted pages: onboarding form, sandbox test portal, API reference. */
export const pageRoutes: FastifyPluginAsync<Deps> = async () => {};
