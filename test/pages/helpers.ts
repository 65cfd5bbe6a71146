import assert from 'node:assert/strict';

export { formBody, newOnboardingLink } from '../support/onboarding.ts';

export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'self'; base-uri 'none'";

/** The opening tag of the element with this id. */
export function tagWithId(page: string, id: string): string {
  const match = new RegExp(`<(input|select)\\b[^>]*\\bid="${id}"[^>]*>`).exec(page);
  assert.ok(match, `an input or select with id="${id}"`);
  return match[0];
}
