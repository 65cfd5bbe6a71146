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
export function formBody(application: OnboardingApplication, signature = { agree: 'yes', signature_name: 'Jane Doe' }): Record<string, string> {
  const body: Record<string, string> = {};
  for (const [group, fields] of Object.entries(application)) {
    for (const [name, value] of Object.entries(fields)) if (value !== undefined) body[`${group}.${name}`] = value;
  }
  return { ...body, ...signature };
}
