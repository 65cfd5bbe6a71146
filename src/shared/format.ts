/** Money and dates for people: Intl in the element's locale, US dollars. */

const FALLBACK_LOCALE = 'en-US';

/** The element's `locale`, else the document's language, else en-US; an invalid tag falls back too. */
export function resolveLocale(locale?: string | null): string {
  const candidates = [locale, typeof document === 'undefined' ? undefined : document.documentElement.lang];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      return Intl.getCanonicalLocales(candidate)[0] ?? FALLBACK_LOCALE;
    } catch {
      // Not a BCP 47 tag: try the next source.
    }
  }
  return FALLBACK_LOCALE;
}

const AMOUNT = /^\d{1,13}(?:\.\d{1,2})?$/;

/** True for the decimal text the service takes ("10", "10.5", "10.50") when it is more than zero. */
export function isAmount(text: string | null | undefined): text is string {
  return typeof text === 'string' && AMOUNT.test(text.trim()) && Number(text) > 0;
}

/** "10.5" → "$10.50" (en-US), "10,50 $US" (fr-FR); text that is not a number is shown as it is. */
export function formatMoney(amount: string | number, locale: string): string {
  const value = typeof amount === 'number' ? amount : Number(amount);
  if (!Number.isFinite(value)) return String(amount);
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(value);
}

/** An ISO 8601 timestamp as date and time in the reader's time zone. */
export function formatDateTime(iso: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** Replaces `{name}` in a template with `values.name`; unknown names stay as they are. */
export function interpolate(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
