/** How long the bearer tokens of the hosted onboarding flow stay valid (docs/onboarding.md). */
export const ONBOARDING_SESSION_TTL_MS = 30 * 60 * 1000;
export const ONBOARDING_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
