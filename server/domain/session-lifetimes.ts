/** How long the bearer tokens of the hosted onboarding flow stay valid (docs/onboarding.md). */
export const ONBOARDING_SESSION_TTL_MS = 30 * 60 * 1000;
/** An onboarding link must be opened this soon after it was made: until then, the link alone is the key. */
export const ONBOARDING_LINK_TTL_MS = 15 * 60 * 1000;
/** Once opened, the form works this long in the browser that opened it, and in no other. */
export const ONBOARDING_FORM_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** A draft stays this long after its link ended, for a refreshed link to carry on with. */
export const ONBOARDING_DRAFT_KEPT_MS = 7 * 24 * 60 * 60 * 1000;
