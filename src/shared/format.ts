/** Money for people: Intl in the element's locale, US dollars (dates are in dates.ts, which only the table needs). */

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

/** Decimal text as the service takes it ("10", "10.5", "10.50"), spaces around allowed. */
const DECIMAL = /^\s*\d{1,13}(\.\d{1,2})?\s*$/;

/** True for the decimal text the service takes when it is more than zero. */
export function isAmount(text: string | null | undefined): text is string {
  return DECIMAL.test(text ?? '') && Number(text) > 0;
}

// Made once per locale: building an Intl formatter costs far more than using one (a table formats hundreds of cells).
const moneyFormats = new Map<string, Intl.NumberFormat>();

/** "10.5" → "$10.50" (en-US), "10,50 $US" (fr-FR). */
export function formatMoney(amount: string | number, locale: string): string {
  // Intl's first number format on a page costs a phone 30–90 ms of CPU (ICU loads its number data), on the way to a
  // pay button's first render: in US English, the default, a plain amount is written as Intl writes it, "$" and the
  // digits in groups of three with two decimals (test/elements/format.test.ts holds the two equal).
  const plain = (locale === 'en' || locale === 'en-US') && DECIMAL.test(String(amount));
  if (plain)
    return `$${Number(amount)
      .toFixed(2)
      .replace(/\B(?=(\d{3})+\.)/g, ',')}`;
  let format = moneyFormats.get(locale);
  if (!format)
    moneyFormats.set(locale, (format = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' })));
  return format.format(amount as number);
}

/** Replaces `{name}` in a template with `values.name`; unknown names stay as they are. */
export function interpolate(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole));
}
