import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../plugins/deps.ts';
import {
  ONBOARDING_FIELDS,
  ONBOARDING_GROUPS,
  type OnboardingApplication,
  type OnboardingGroup,
} from '../../domain/onboarding.ts';
import { canOpen, isOnboardingStep, STEP_GROUPS, type OnboardingStep } from '../../domain/onboarding-steps.ts';
import { platformBrand } from '../../services/branding.ts';
import {
  onboardingPath,
  openOnboardingLink,
  saveOnboardingStep,
  submitHostedApplication,
  type LinkState,
} from '../../services/onboarding.ts';
import { linkProblemPage, signatureFieldErrors, thankYouPage } from '../../views/onboarding-form.ts';
import { onboardingReviewPage, onboardingStepPage, type StepAddresses } from '../../views/onboarding-steps.ts';
import { askedLocale, pageLocale, type PageLocale } from '../../views/i18n/language.ts';
import { notFoundPage } from '../../views/not-found.ts';
import { sendPage } from './send.ts';

interface LinkRoute {
  Params: { token: string };
  Querystring: { locale?: string };
}

interface StepRoute extends LinkRoute {
  Params: { token: string; step: string };
}

const fieldsOf = (body: unknown) => (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>;
const textOf = (fields: Record<string, unknown>, key: string) => {
  const value = fields[key];
  return typeof value === 'string' ? value : '';
};

/** One group's answers from the form's flat `Group.field` keys; only the keys that were posted. */
function postedGroup(fields: Record<string, unknown>, group: OnboardingGroup): Record<string, string | undefined> {
  const posted = Object.keys(ONBOARDING_FIELDS[group]).filter((name) => Object.hasOwn(fields, `${group}.${name}`));
  return Object.fromEntries(posted.map((name) => [name, textOf(fields, `${group}.${name}`) || undefined]));
}

/** The final post: the signature, and any answers posted with it (they replace the saved ones). */
function readSubmission(body: unknown) {
  const fields = fieldsOf(body);
  const application: Partial<OnboardingApplication> = {};
  for (const group of ONBOARDING_GROUPS) {
    const posted = postedGroup(fields, group);
    if (Object.keys(posted).length > 0) application[group] = posted;
  }
  return { application, signerName: textOf(fields, 'signature_name'), agreed: textOf(fields, 'agree') !== '' };
}

type OpenLink = Extract<LinkState, { state: 'open' }>;
type ClosedLink = Exclude<LinkState, { state: 'open' }>;

/** The cookie of the browser that opened a link: its path is the link's, so each link has its own. */
const BROWSER_COOKIE = 'paykit_onboarding';
const browserOf = (request: FastifyRequest) =>
  new RegExp(`(?:^|;\\s*)${BROWSER_COOKIE}=([\\w-]+)`).exec(request.headers.cookie ?? '')?.[1];

/**
 * The hosted onboarding form behind the link the API gives out: a step a page, saved on the link. The first browser to
 * open the link holds it (a cookie); the link itself then opens nothing anywhere else.
 */
export const onboardingPages: FastifyPluginAsync<Deps> = async (app, { clock, config }) => {
  const path = onboardingPath(':token');
  const secure = config.publicUrl.startsWith('https:') ? '; Secure' : '';
  /** Has the browser keep the cookie, when this request is the one that opened the link (whatever page it answers). */
  const keep = (reply: FastifyReply, token: string, link: OpenLink) => {
    if (link.opened) {
      const maxAge = Math.floor((Date.parse(link.expiresAt) - clock.now().getTime()) / 1000);
      reply.header(
        'set-cookie',
        `${BROWSER_COOKIE}=${link.browser}; Path=${onboardingPath(token)}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`,
      );
    }
  };
  /** Why the link cannot be used; or, for one that ended or is held elsewhere, the partner's refresh address, if it gave one. */
  const closed = (reply: FastifyReply, link: ClosedLink, lang: PageLocale) =>
    link.refreshUrl && (link.state === 'expired' || link.state === 'elsewhere')
      ? reply.redirect(link.refreshUrl, 303)
      : sendPage(reply, linkProblemPage(link.state, lang));

  // The merchant's language: `?locale=` when the partner's link names one (every address of the form carries it),
  // else the browser's.
  const languageOf = (request: FastifyRequest<LinkRoute>) =>
    pageLocale(askedLocale(request.query.locale), request.headers['accept-language']);
  const addressesOf = (token: string, lang: PageLocale): StepAddresses => {
    const query = lang.asked ? `?locale=${encodeURIComponent(lang.asked)}` : '';
    return { step: (step) => `${onboardingPath(token)}/${step}${query}`, submit: `${onboardingPath(token)}${query}` };
  };

  // The platform's brand, read only for a page about to be shown (a post that redirects needs none).
  const brandOf = (request: FastifyRequest, link: OpenLink) =>
    platformBrand(request.unit.store, link.merchant.client_id);

  const showStep = async (
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    step: OnboardingStep,
    link: OpenLink,
    lang: PageLocale,
  ) => {
    const { draft, expiresAt } = link;
    const brand = await brandOf(request, link);
    const addresses = addressesOf(token, lang);
    if (step === 'review')
      return sendPage(
        reply,
        onboardingReviewPage({ draft, errors: [], signerName: '', agreed: false, lang, addresses, expiresAt, brand }),
      );
    const values = draft.answers[STEP_GROUPS[step]];
    return sendPage(
      reply,
      onboardingStepPage({ step, draft, values, errors: [], secretsTyped: false, lang, addresses, expiresAt, brand }),
    );
  };

  // The link itself opens where the merchant left off.
  app.get<LinkRoute>(path, { schema: { hide: true } }, async (request, reply) => {
    const lang = languageOf(request);
    const link = await request.unit.transaction((tx) =>
      openOnboardingLink(tx, request.params.token, browserOf(request), clock.now()),
    );
    if (link.state !== 'open') return closed(reply, link, lang);
    keep(reply, request.params.token, link);
    return showStep(request, reply, request.params.token, link.draft.at, link, lang);
  });

  app.get<StepRoute>(`${path}/:step`, { schema: { hide: true } }, async (request, reply) => {
    const { token, step } = request.params;
    if (!isOnboardingStep(step)) return sendPage(reply, notFoundPage());
    const lang = languageOf(request);
    const link = await request.unit.transaction((tx) => openOnboardingLink(tx, token, browserOf(request), clock.now()));
    if (link.state !== 'open') return closed(reply, link, lang);
    keep(reply, token, link);
    // A step further than the merchant has come is not open yet: the furthest one reached is.
    if (!canOpen(link.draft, step)) return reply.redirect(addressesOf(token, lang).step(link.draft.reached), 303);
    return showStep(request, reply, token, step, link, lang);
  });

  app.post<StepRoute>(`${path}/:step`, { schema: { hide: true } }, async (request, reply) => {
    const { token, step } = request.params;
    if (!isOnboardingStep(step) || step === 'review') return sendPage(reply, notFoundPage());
    const lang = languageOf(request);
    const link = await request.unit.transaction((tx) => openOnboardingLink(tx, token, browserOf(request), clock.now()));
    if (link.state !== 'open') return closed(reply, link, lang);
    keep(reply, token, link);
    if (!canOpen(link.draft, step)) return reply.redirect(addressesOf(token, lang).step(link.draft.reached), 303);
    const fields = fieldsOf(request.body);
    const posted = postedGroup(fields, STEP_GROUPS[step]);
    const direction = textOf(fields, 'go') === 'back' ? 'back' : 'forward';
    const saved = await request.unit.transaction((tx) =>
      saveOnboardingStep(tx, token, link.browser, step, posted, direction, clock.now()),
    );
    if (!saved.saved) return closed(reply, saved.link as ClosedLink, lang);
    const addresses = addressesOf(token, lang);
    if (saved.errors.length > 0) {
      const secretsTyped = ['ssn', 'account_number'].some((name) => Boolean(posted[name]));
      return sendPage(
        reply,
        onboardingStepPage({
          step,
          draft: saved.draft,
          values: posted,
          errors: saved.errors,
          secretsTyped,
          lang,
          addresses,
          expiresAt: link.expiresAt,
          brand: await brandOf(request, link),
        }),
      );
    }
    // After a post, a redirect: reloading the next step does not post this one again.
    return reply.redirect(addresses.step(saved.draft.at), 303);
  });

  app.post<LinkRoute>(path, { schema: { hide: true } }, async (request, reply) => {
    const lang = languageOf(request);
    const { token } = request.params;
    const { application, signerName, agreed } = readSubmission(request.body);
    const browser = browserOf(request);
    const outcome = await request.unit.transaction((tx) =>
      submitHostedApplication(tx, token, browser, application, { signerName, agreed }, clock.now()),
    );
    if (outcome.accepted) return sendPage(reply, thankYouPage(outcome.merchant.business_name, lang));
    if (outcome.link && outcome.link.state !== 'open') return closed(reply, outcome.link, lang);
    // Refused answers: the form again, in the browser that now holds the link (this post may have opened it).
    const link =
      outcome.link ?? (await request.unit.transaction((tx) => openOnboardingLink(tx, token, browser, clock.now())));
    if (link.state !== 'open') return closed(reply, link, lang);
    keep(reply, token, link);
    const errors = [...outcome.fieldErrors, ...signatureFieldErrors(outcome.signatureErrors)];
    return sendPage(
      reply,
      onboardingReviewPage({
        draft: link.draft,
        errors,
        signerName,
        agreed,
        lang,
        addresses: addressesOf(token, lang),
        expiresAt: link.expiresAt,
        brand: await brandOf(request, link),
      }),
    );
  });
};
