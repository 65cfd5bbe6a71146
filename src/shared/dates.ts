/** Dates for people: Intl in the element's locale. Apart from format.ts, which the script tag carries to every page: only the table shows dates. */

// Made once per locale: building an Intl formatter costs far more than using one (a table formats hundreds of cells).
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** An ISO 8601 timestamp (as the service sends them) as date and time in the reader's time zone. */
export function formatDateTime(iso: string, locale: string): string {
  let format = dateTimeFormats.get(locale);
  if (!format)
    dateTimeFormats.set(
      locale,
      (format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' })),
    );
  return format.format(Date.parse(iso));
}
