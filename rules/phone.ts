/**
 * The phone rule of Paykit, shared by the elements (which check a number before they send it) and the service:
 * "+" and 8 to 15 digits, or a ten-digit North American number (optionally with a leading 1); spaces, dots,
 * dashes and parentheses are ignored. Returns the E.164 form, or null.
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
