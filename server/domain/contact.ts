// Deliberately simple: one @, no spaces, a dot in the domain. The real check is a message that arrives.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(text: string): boolean {
  return text.length <= 254 && EMAIL.test(text);
}

export function isWebsite(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.includes('.');
  } catch {
    return false;
  }
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** True for an ISO 3166-1 alpha-2 country code such as "US" or "DE". */
export function isCountryCode(text: string): boolean {
  if (!/^[A-Z]{2}$/.test(text)) return false;
  try {
    return text !== 'ZZ' && regionNames.of(text) !== undefined;
  } catch {
    return false;
  }
}
