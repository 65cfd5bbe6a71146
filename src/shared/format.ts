/** Money and dates for people: Intl in the element's locale, US dollars. */

/** The element's `locale`, else the document's language, else en-US; an invalid tag falls back too. */
export function resolveLocale(locale?: string | null): string {
  for (const tag of [locale, globalThis.document?.documentElement.lang]) {
    try {
      if (tag) return Intl.getCanonicalLocales(tag)[0]!;
    } catch {
      // Not a BCP 47 tag: try the next source.
    }
  }
  return 'en-US';
}

/** True for the decimal text the service takes ("10", "10.5", "10.50") when it is more than zero. */
export function isAmount(text: string | null | undefined): text is string {
  return /^\s*\d{1,13}(\.\d{1,2})?\s*$/.test(text ?? '') && Number(text) > 0;
}

// Made once per locale: building an Intl formatter costs far more than using one (a table formats hundreds of cells).
const moneyFormats = new Map<string, Intl.NumberFormat>();
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** "10.5" → "$10.50" (en-US), "10,50 $US" (fr-FR). */
export function formatMoney(amount: string | number, locale: string): string {
  let format = moneyFormats.get(locale);
  if (!format) moneyFormats.set(locale, (format = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' })));
  return format.format(amount as number);
}

/** An ISO 8601 timestamp (as the service sends them) as date and time in the reader's time zone. */
export function formatDateTime(iso: string, locale: string): string {
  let format = dateTimeFormats.get(locale);
  if (!format) dateTimeFormats.set(locale, (format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' })));
  return format.format(Date.parse(iso));
}

/** Replaces `{name}` in a template with `values.name`; unknown names stay as they are. */
export function interpolate(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole));
}
