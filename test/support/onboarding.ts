import assert from 'node:assert/strict';
import type { OnboardingApplication } from '../../server/domain/onboarding.ts';
import type { TestService } from './service.ts';

/** A one-time onboarding link, obtained through the real API as a partner would. */
export async function newOnboardingLink(service: TestService, BusinessInfo: Record<string, string> = {}) {
  const session = await service.api('GET', '/auth/create-session');
  assert.equal(session.status, 200, session.text);
  const started = await service.api('POST', `/auth/onboarding/${session.body.data.sessionToken}`, {
    json: { company_id: 'acme-42', BusinessInfo },
  });
  assert.equal(started.status, 200, started.text);
  const link = new URL(started.body.data.onboarding_link as string);
  assert.equal(link.origin, service.baseUrl);
  return { url: link.href, path: link.pathname, merchantId: started.body.data.merchant_id as string };
}

/** The application as the hosted form posts it: flat `Group.field` keys, plus the signature. */
export function formBody(
  application: OnboardingApplication,
  signature = { agree: 'yes', signature_name: 'Jane Doe' },
): Record<string, string> {
  const body: Record<string, string> = {};
  for (const [group, fields] of Object.entries(application)) {
    for (const [name, value] of Object.entries(fields)) if (value !== undefined) body[`${group}.${name}`] = value;
  }
  return { ...body, ...signature };
}

/** The hosted form's answer steps and the group each asks for, in order. */
export const ANSWER_STEPS = [
  ['business', 'BusinessInfo'],
  ['owner', 'OwnerInfo'],
  ['bank', 'BankingInfo'],
  ['processing', 'ProcessingInfo'],
] as const;

/** One step of the hosted form posted as the browser posts it: its group's `Group.field` keys and the button's `go`. */
export function postStep(
  service: TestService,
  linkPath: string,
  step: string,
  fields: Record<string, string | undefined>,
  options: { go?: 'forward' | 'back'; headers?: Record<string, string>; query?: string } = {},
) {
  const form = Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return service.request('POST', `${linkPath}/${step}${options.query ?? ''}`, {
    form: { ...form, go: options.go ?? 'forward' },
    headers: options.headers,
  });
}

/** Answers every step with `application`, as a merchant going forward through the form; each must be accepted. */
export async function answerSteps(service: TestService, linkPath: string, application: OnboardingApplication) {
  const body = formBody(application, { agree: '', signature_name: '' });
  for (const [step, group] of ANSWER_STEPS) {
    const fields = Object.fromEntries(Object.entries(body).filter(([key]) => key.startsWith(`${group}.`)));
    const answer = await postStep(service, linkPath, step, fields);
    assert.equal(answer.status, 303, `${step}: ${answer.text}`);
  }
}
