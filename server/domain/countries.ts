import { isCountryCode } from './contact.ts';

/** Codes that name a group of countries or a test region rather than a country a business is in. */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'QO', 'UN', 'XA', 'XB']);

/** A code still in use: an old one (`DD`, `UK`, `YU`) is canonicalized to its successor. */
const current = (code: string) => Intl.getCanonicalLocales(`und-${code}`)[0] === `und-${code}`;

/** Every ISO 3166-1 alpha-2 code a merchant may choose: what the onboarding rules accept, less old codes and groups. */
export const COUNTRY_CODES: readonly string[] = Array.from({ length: 26 * 26 }, (_, i) =>
  String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26)),
).filter((code) => isCountryCode(code) && current(code) && !NOT_COUNTRIES.has(code));
