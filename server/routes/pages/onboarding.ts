import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { ONBOARDING_FIELDS, ONBOARDING_GROUPS, type OnboardingApplication } from '../../domain/onboarding.ts';
import { onboardingPath, openOnboardingLink, submitHostedApplication } from '../../services/onboarding.ts';
import { linkProblemPage, onboardingFormPage, signatureFieldErrors, thankYouPage } from '../../views/onboarding-form.ts';
import { askedLocale, pageLocale } from '../../views/i18n/language.ts';
import { sendPage } from './send.ts';

interface LinkRoute {
  Params: { token: string };
  Querystring: { locale?: string };
}

/** The form's flat `Group.field` keys back into the four groups the domain validates. */
function readForm(body: unknown) {
  const fields = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const text = (key: string) => {
    const value = fields[key];
    return typeof value === 'string' ? value : '';
  };
  const application = Object.fromEntries(
    ONBOARDING_GROUPS.map((group) => [
      group,
      Object.fromEntries(Object.keys(ONBOARDING_FIELDS[group]).map((name) => [name, text(`${group}.${name}`) || undefined])),
    ]),
  ) as OnboardingApplication;
  const values: Record<string, string | undefined> = { signature_name: text('signature_name') };
  for (const group of ONBOARDING_GROUPS) {
    for (const [name, value] of Object.entries(application[group])) values[`${group}.${name}`] = value;
  }
  return { application, values, signerName: text('signature_name'), agreed: text('agree') !== '' };
}

/** The hosted onboarding form behind the one-time link the API gives out. */
export const onboardingPages: FastifyPluginAsync<Deps> = async (app, { store, clock }) => {
  const path = onboardingPath(':token');

  // The merchant's language: `?locale=` when the partner's link names one (the form posts back to the same
  // address), else the browser's.
  const languageOf = (request: FastifyRequest<LinkRoute>) => pageLocale(askedLocale(request.query.locale), request.headers['accept-language']);

  app.get<LinkRoute>(path, { schema: { hide: true } }, async (request, reply) => {
    const lang = languageOf(request);
    const link = await openOnboardingLink(store, request.params.token, clock.now());
    if (link.state !== 'open') return sendPage(reply, linkProblemPage(link.state, lang));
    const values = Object.fromEntries(Object.entries(link.prefill).map(([name, value]) => [`BusinessInfo.${name}`, value]));
    return sendPage(reply, onboardingFormPage({ values, agreed: false, errors: [], lang }));
  });

  app.post<LinkRoute>(path, { schema: { hide: true } }, async (request, reply) => {
    const lang = languageOf(request);
    const { application, values, signerName, agreed } = readForm(request.body);
    const outcome = await submitHostedApplication(store, request.params.token, application, { signerName, agreed }, clock.now());
    if (outcome.accepted) return sendPage(reply, thankYouPage(outcome.merchant.business_name, lang));
    if (outcome.linkState) return sendPage(reply, linkProblemPage(outcome.linkState, lang));
    const errors = [...outcome.fieldErrors, ...signatureFieldErrors(outcome.signatureErrors)];
    return sendPage(reply, onboardingFormPage({ values, agreed, errors, lang }));
  });
};
