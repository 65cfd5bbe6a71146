import type { Store } from '../store/store.ts';
import type { Merchant } from '../store/merchants.ts';
import { conflict, invalid, notFound } from '../domain/refusals.ts';
import { isoDateOf } from '../domain/calendar.ts';
import { normalizePhone } from '../../rules/phone.ts';
import {
  canonicalApplication,
  lastFour,
  validateOnboarding,
  validatePrefill,
  type FieldError,
  type OnboardingApplication,
} from '../domain/onboarding.ts';
import { AGREEMENT_VERSION, validateSignature, type AgreementSignature } from '../domain/signature.ts';
import {
  ONBOARDING_FORM_TTL_MS,
  ONBOARDING_LINK_TTL_MS,
  ONBOARDING_SESSION_TTL_MS,
} from '../domain/session-lifetimes.ts';
import { digest, newId, newToken } from '../platform/secrets.ts';
import { merchantByKey } from './merchant-access.ts';
import { documentsSignedEvent, merchantStatusEvent, onboardingEvent } from './events.ts';
import { partnerStatus } from '../domain/merchant-review.ts';
import { isoInstant } from '../domain/instants.ts';
import {
  keptFields,
  newDraft,
  parseDraft,
  saveStep,
  type AnswerStep,
  type OnboardingDraft,
} from '../domain/onboarding-steps.ts';

/** The path of the hosted onboarding form; the link is this under the service's public origin. */
export const onboardingPath = (linkToken: string) => `/onboard/${linkToken}`;

function newPublicKey(): string {
  return newToken('pk_').slice(0, 35);
}

/**
 * The application as kept: SSN and bank account number reduced to their last four digits (or the last four a hosted
 * form's draft kept of them, when they were not typed again).
 */
function storedApplication(
  application: OnboardingApplication,
  signature?: AgreementSignature & { signedAt: string },
  kept: OnboardingDraft['kept'] = {},
) {
  const { ssn = '', ...owner } = application.OwnerInfo;
  const { account_number = '', ...banking } = application.BankingInfo;
  return JSON.stringify({
    BankingInfo: {
      ...banking,
      account_last4: account_number ? lastFour(account_number) : (kept['BankingInfo.account_number'] ?? ''),
    },
    BusinessInfo: application.BusinessInfo,
    OwnerInfo: { ...owner, ssn_last4: ssn ? lastFour(ssn) : (kept['OwnerInfo.ssn'] ?? '') },
    ProcessingInfo: application.ProcessingInfo,
    ...(signature
      ? { agreement: { version: AGREEMENT_VERSION, signer_name: signature.signerName, signed_at: signature.signedAt } }
      : {}),
  });
}

function merchantFields(application: OnboardingApplication) {
  const business = application.BusinessInfo;
  const owner = application.OwnerInfo;
  return {
    business_name: business.business_name!.trim(),
    email: business.business_email!.trim().toLowerCase(),
    first_name: owner.first_name!.trim(),
    last_name: owner.last_name!.trim(),
    phone: normalizePhone(business.business_phone!) ?? business.business_phone!,
    website: business.website?.trim() ?? '',
  };
}

function describeFieldErrors(errors: FieldError[]): string {
  return `The application is incomplete or invalid: ${errors.map((e) => e.message.replace(/\.$/, '')).join('; ')}.`;
}

/** POST /onboarding: the whole application at once. The merchant waits for review (`pending`). */
export async function submitApplication(store: Store, clientId: string, submitted: OnboardingApplication, now: Date) {
  const errors = validateOnboarding(submitted, isoDateOf(now));
  if (errors.length > 0) throw invalid(describeFieldErrors(errors), { errors });
  const application = canonicalApplication(submitted);
  const merchantKey = newToken('mk_');
  const merchant: Merchant = {
    id: newId('m_'),
    client_id: clientId,
    company_id: null,
    status: 'pending',
    ...merchantFields(application),
    merchant_key_hash: digest(merchantKey),
    public_key: newPublicKey(),
    application: storedApplication(application),
    created_at: isoInstant(now),
    submitted_at: isoInstant(now),
    approved_at: null,
    declined_at: null,
    decline_reason: null,
  };
  await store.transaction(async (tx) => {
    await tx.merchants.insert(merchant);
    await tx.events.add(clientId, 'merchant.onboarding', onboardingEvent(merchant, merchantKey), now);
    await tx.events.add(clientId, 'merchant_status', merchantStatusEvent(merchant, 'pending', '', now), now);
  });
  return { merchant, merchantKey };
}

/** GET /auth/create-session: a single-use token that starts one hosted onboarding. */
export async function createOnboardingSession(store: Store, clientId: string, now: Date) {
  const token = newToken('ost_');
  const expiresAt = isoInstant(now, ONBOARDING_SESSION_TTL_MS);
  await store.onboardingTokens.insertSession({ token_hash: digest(token), client_id: clientId, expires_at: expiresAt });
  return { token, expiresAt };
}

export interface HostedOnboardingStart {
  company_id?: string | undefined;
  BusinessInfo?: Record<string, string | undefined> | undefined;
  refresh_url?: string | undefined;
}

/** A partner's refresh address: an absolute http(s) URL. */
function readRefreshUrl(text: string | undefined): string | null {
  if (text === undefined) return null;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.href !== text) {
    throw invalid(
      `refresh_url must be an absolute http(s) URL, such as https://partner.example/onboarding/refresh, written as it is sent.`,
    );
  }
  return text;
}

/** A new link to the hosted form, and where it is: opened within minutes, then in that browser only. */
function newLink(merchantId: string, now: Date, refreshUrl: string | null, draft: string | null, publicUrl: string) {
  const token = newToken('obl_');
  const row = {
    token_hash: digest(token),
    merchant_id: merchantId,
    expires_at: isoInstant(now, ONBOARDING_LINK_TTL_MS),
    refresh_url: refreshUrl,
    draft,
  };
  return { row, answer: { onboarding_link: `${publicUrl}${onboardingPath(token)}`, expires_at: row.expires_at } };
}

/** POST /auth/onboarding/{session_token}: creates the merchant and the link to its hosted form. */
export async function startHostedOnboarding(
  store: Store,
  clientId: string,
  sessionToken: string,
  input: HostedOnboardingStart,
  now: Date,
  publicUrl: string,
) {
  const prefill = Object.fromEntries(Object.entries(input.BusinessInfo ?? {}).map(([k, v]) => [k, v?.trim()]));
  const errors = validatePrefill(prefill, isoDateOf(now));
  if (errors.length > 0) throw invalid(describeFieldErrors(errors), { errors });
  const refreshUrl = readRefreshUrl(input.refresh_url);
  const merchantId = newId('m_');
  const link = newLink(merchantId, now, refreshUrl, null, publicUrl);
  const merchant: Merchant = {
    id: merchantId,
    client_id: clientId,
    company_id: input.company_id?.trim() || null,
    status: 'invited',
    business_name: prefill.business_name ?? '',
    email: prefill.business_email?.toLowerCase() ?? '',
    first_name: '',
    last_name: '',
    phone: prefill.business_phone ? (normalizePhone(prefill.business_phone) ?? '') : '',
    website: '',
    merchant_key_hash: null,
    public_key: newPublicKey(),
    application: JSON.stringify({ BusinessInfo: prefill }),
    created_at: isoInstant(now),
    submitted_at: null,
    approved_at: null,
    declined_at: null,
    decline_reason: null,
  };
  await store.transaction(async (tx) => {
    const session = await tx.onboardingTokens.useSession(digest(sessionToken), isoInstant(now));
    if (!session || session.client_id !== clientId) {
      throw notFound(
        'The session token is unknown, expired or already used: get a new one from GET /auth/create-session.',
      );
    }
    await tx.merchants.insert(merchant);
    await tx.onboardingTokens.insertLink(link.row);
  });
  return { merchant_id: merchant.id, company_id: merchant.company_id ?? '', ...link.answer };
}

/**
 * POST /auth/onboarding-link: a new link for a merchant still filling in the hosted form (its link ended, or was
 * opened in another browser). The answers saved so far move to the new link; every earlier link ends.
 */
export async function refreshOnboardingLink(
  store: Store,
  clientId: string,
  merchantId: string,
  refreshUrl: string | undefined,
  now: Date,
  publicUrl: string,
) {
  const given = readRefreshUrl(refreshUrl);
  const merchant = await store.merchants.findById(clientId, merchantId);
  if (!merchant) throw notFound(`No merchant ${merchantId} of yours.`);
  if (merchant.status !== 'invited')
    throw conflict('This merchant has already submitted its application: there is no form left to fill in.');
  return store.transaction(async (tx) => {
    const ended = await tx.onboardingTokens.endLinks(merchantId, isoInstant(now));
    const link = newLink(merchantId, now, given ?? ended.refresh_url, ended.draft, publicUrl);
    await tx.onboardingTokens.insertLink(link.row);
    return { merchant_id: merchantId, company_id: merchant.company_id ?? '', ...link.answer };
  });
}

/** Why a link cannot be used here: not ours, submitted, ended, or held by another browser. */
type LinkProblem = 'unknown' | 'used' | 'expired' | 'elsewhere';

export type LinkState =
  /** `browser`: the secret of the cookie of the browser holding the link; `opened`: this request opened it (set the cookie). */
  | { state: 'open'; merchant: Merchant; draft: OnboardingDraft; expiresAt: string; browser: string; opened: boolean }
  | { state: LinkProblem; refreshUrl: string | null };

/**
 * What the hosted form shows for a link, to the browser whose cookie holds `browser` (undefined: none): the form with
 * the answers saved so far, or why it cannot be used. A link not opened yet is opened here, for this browser alone.
 */
export async function openOnboardingLink(
  store: Store,
  linkToken: string,
  browser: string | undefined,
  now: Date,
): Promise<LinkState> {
  const link = await store.onboardingTokens.findLink(digest(linkToken));
  if (!link) return { state: 'unknown', refreshUrl: null };
  const refreshUrl = link.refresh_url;
  if (link.used_at) return { state: 'used', refreshUrl };
  let expiresAt = link.expires_at;
  let opened = false;
  if (link.browser_hash === null) {
    if (expiresAt <= isoInstant(now)) return { state: 'expired', refreshUrl };
    browser = newToken('');
    expiresAt = isoInstant(now, ONBOARDING_FORM_TTL_MS);
    if (!(await store.onboardingTokens.openLink(link.token_hash, digest(browser), isoInstant(now), expiresAt)))
      return { state: 'elsewhere', refreshUrl };
    opened = true;
  } else if (browser === undefined || digest(browser) !== link.browser_hash) {
    return { state: 'elsewhere', refreshUrl };
  }
  if (expiresAt <= isoInstant(now)) return { state: 'expired', refreshUrl };
  const merchant = await store.merchants.findByIdUnscoped(link.merchant_id);
  if (!merchant) return { state: 'unknown', refreshUrl: null };
  const saved = JSON.parse(merchant.application ?? '{}') as { BusinessInfo?: Record<string, string | undefined> };
  const draft = (link.draft ? parseDraft(link.draft) : null) ?? newDraft(saved.BusinessInfo ?? {});
  return { state: 'open', merchant, draft, expiresAt, browser: browser!, opened };
}

export type SavedStep =
  { saved: true; draft: OnboardingDraft; errors: FieldError[] } | { saved: false; link: LinkState };

/** One step of the hosted form, saved on its link (`forward` checks it first; see saveStep). */
export async function saveOnboardingStep(
  store: Store,
  linkToken: string,
  browser: string | undefined,
  step: AnswerStep,
  posted: Record<string, string | undefined>,
  direction: 'forward' | 'back',
  now: Date,
): Promise<SavedStep> {
  const opened = await openOnboardingLink(store, linkToken, browser, now);
  if (opened.state !== 'open') return { saved: false, link: opened };
  const { draft, errors } = saveStep(opened.draft, step, posted, direction, isoDateOf(now));
  if (
    !(await store.onboardingTokens.saveDraft(
      digest(linkToken),
      digest(opened.browser),
      JSON.stringify(draft),
      isoInstant(now),
    ))
  ) {
    return { saved: false, link: { state: 'used', refreshUrl: null } };
  }
  return { saved: true, draft, errors };
}

export type HostedSubmission =
  | { accepted: true; merchant: Merchant }
  | { accepted: false; link?: LinkState; fieldErrors: FieldError[]; signatureErrors: string[] };

/** The draft's answers with the posted ones over them: a field posted (even empty) replaces the saved one. */
function withPosted(draft: OnboardingDraft, posted: Partial<OnboardingApplication>): OnboardingApplication {
  const merged = structuredClone(draft.answers);
  for (const [group, values] of Object.entries(posted) as [
    keyof OnboardingApplication,
    Record<string, string | undefined>,
  ][]) {
    merged[group] = { ...merged[group], ...values };
  }
  return merged;
}

/**
 * The merchant submits the hosted form: the answers saved step by step, and any posted with the signature. The link
 * is used up, the merchant waits for review, and the client hears `merchant.onboarding` (with the new merchant key)
 * and `documents.signed`, all in one transaction.
 */
export async function submitHostedApplication(
  store: Store,
  linkToken: string,
  browser: string | undefined,
  posted: Partial<OnboardingApplication>,
  signature: AgreementSignature,
  now: Date,
): Promise<HostedSubmission> {
  const opened = await openOnboardingLink(store, linkToken, browser, now);
  if (opened.state !== 'open') return { accepted: false, link: opened, fieldErrors: [], signatureErrors: [] };
  const submitted = withPosted(opened.draft, posted);
  const kept = new Set(
    [...keptFields(opened.draft)].filter((field) => {
      const [group, name] = field.split('.') as [keyof OnboardingApplication, string];
      return !submitted[group][name];
    }),
  );
  const fieldErrors = validateOnboarding(submitted, isoDateOf(now), kept);
  const signatureErrors = validateSignature(signature);
  if (fieldErrors.length > 0 || signatureErrors.length > 0)
    return { accepted: false, link: opened, fieldErrors, signatureErrors };
  const application = canonicalApplication(submitted);

  const merchantKey = newToken('mk_');
  const signedAt = isoInstant(now);
  const changes = {
    status: 'pending' as const,
    ...merchantFields(application),
    merchant_key_hash: digest(merchantKey),
    application: storedApplication(
      application,
      { ...signature, signerName: signature.signerName.trim(), signedAt },
      opened.draft.kept,
    ),
    submitted_at: signedAt,
  };
  const merchant: Merchant = { ...opened.merchant, ...changes };
  const used = await store.transaction(async (tx) => {
    if (!(await tx.onboardingTokens.useLink(digest(linkToken), digest(opened.browser), signedAt))) return false;
    await tx.merchants.transition(merchant.id, 'invited', changes);
    await tx.events.add(merchant.client_id, 'merchant.onboarding', onboardingEvent(merchant, merchantKey), now);
    await tx.events.add(merchant.client_id, 'documents.signed', documentsSignedEvent(merchant), now);
    await tx.events.add(merchant.client_id, 'merchant_status', merchantStatusEvent(merchant, 'pending', '', now), now);
    return true;
  });
  if (!used)
    return { accepted: false, link: { state: 'used', refreshUrl: null }, fieldErrors: [], signatureErrors: [] };
  return { accepted: true, merchant };
}

/**
 * POST /auth/get-onboarding-status: `pending` until the review decides, then `completed` (approved) or `declined`
 * with the reason the review gave.
 */
export async function onboardingStatus(store: Store, clientId: string, merchantKey: string) {
  const merchant = await merchantByKey(store, clientId, merchantKey);
  const merchantStatus = partnerStatus(merchant.status);
  return merchantStatus === 'declined'
    ? { merchantStatus, decline_reason: merchant.decline_reason ?? '' }
    : { merchantStatus };
}
