/** Money is integer minor units (cents) inside the service and decimal text at its edges. */

const DECIMAL_TEXT = /^(\d{1,13})(?:\.(\d{1,2}))?$/;

/** Parses "12", "12.5" or "12.50" into minor units; null when the text is not a plain decimal amount. */
export function parseAmount(text: string): number | null {
  const match = DECIMAL_TEXT.exec(text.trim());
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/**
 * An amount to move, as a merchant would be told about it (issue 44): a negative or zero amount "must be more than
 * zero", anything else that is not decimal text says what to send; else its minor units.
 */
export function positiveAmount(field: string, value: string | number, example = '25.00'): number | { problem: string } {
  const text = String(value).trim();
  const minor = parseAmount(text.replace(/^-/, ''));
  if (minor !== null && (minor === 0 || text.startsWith('-')))
    return { problem: `${field} must be more than zero: send the amount to move, such as "${example}".` };
  if (minor === null)
    return {
      problem: `${field} must be a number with at most two decimals and no currency sign, such as "${example}".`,
    };
  return minor;
}

/** The largest payment Paykit takes, in minor units: 999,999.99, as card networks' usual ceiling (docs/payments.md). */
export const MAX_PAYMENT = 99_999_999;

/** The sentence that refuses an amount over `MAX_PAYMENT`. */
export const overMaximum = (field: string) => `${field} must be at most ${formatAmount(MAX_PAYMENT)}.`;

/** Formats minor units as decimal text with two places: 1050 → "10.50". */
export function formatAmount(minorUnits: number): string {
  const sign = minorUnits < 0 ? '-' : '';
  const abs = Math.abs(minorUnits);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Minor units as the JSON number the interface uses for `net_amount` and event amounts: 1050 → 10.5. */
export function toMajorNumber(minorUnits: number): number {
  return minorUnits / 100;
}
