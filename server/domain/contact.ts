// Deliberately simple: one @, no spaces, a dot in the domain. The real check is a message that arrives.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(text: string): boolean {
  return text.length <= 254 && EMAIL.test(text);
}

/**
 * Normalizes a phone number to E.164. Accepts "+" followed by 8 to 15 digits, or a ten-digit
 * North American number (optionally with a leading 1); spaces, dots, dashes and parentheses are ignored.
 * Returns null when the text is not a phone number.
 */
export function normalizePhone(text: string): string | null {
  const trimmed = text.trim();
  if (!/^\+?[\d\s().-]+$/.test(trimmed)) return null;
  const digits = trimmed.replace(/\D/g, '');
  if (trimmed.startsWith('+')) return digits.length >= 8 && digits.length <= 15 ? `+${digits}` : null;
  if (digits.length === 10) return `+1${digits}`;
  if (digits.length === 11 && digits.startsWith('1')) return `+${digits}`;
  return null;
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
