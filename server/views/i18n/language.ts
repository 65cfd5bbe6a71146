/**
 * The language of a hosted page: the one the pay button asked for (`?locale=`, the widget's own locale, carried
 * through the page's forms), else the browser's `Accept-Language`, else English. Amounts and dates are formatted
 * in that locale (its region when one was given).
 */
import { de } from './de.ts';
import { en, type PageTexts } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';

const TEXTS: Record<string, PageTexts> = { en, es, fr, de };

/** The locale of each language when only the language is known. */
const DEFAULT_LOCALES: Record<string, string> = { en: 'en-US', es: 'es-ES', fr: 'fr-FR', de: 'de-DE' };

export interface PageLocale {
  /** `en`, `es`, `fr` or `de`: the page's `lang` and texts. */
  language: string;
  /** The BCP 47 locale for Intl, e.g. `fr-CA`. */
  locale: string;
  texts: PageTexts;
  /** The locale the page was asked for (`?locale=`), which its links and forms carry on; none for Accept-Language. */
  asked?: string;
}

/** A BCP 47 tag in its canonical form, or undefined when it is not one. */
function canonical(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

function localeOf(tag: string): PageLocale | undefined {
  const locale = canonical(tag);
  const language = locale?.split('-')[0]!.toLowerCase();
  const texts = language === undefined ? undefined : TEXTS[language];
  return texts
    ? { language: language!, locale: locale!.includes('-') ? locale! : DEFAULT_LOCALES[language!]!, texts }
    : undefined;
}

/** The languages of an Accept-Language header, most wanted first (`fr-CA,fr;q=0.9,en;q=0.5`). */
function accepted(header: string): string[] {
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...parameters] = part.trim().split(';');
      const q = Number(parameters.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean) ?? 1);
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter(({ tag, q }) => tag && q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map(({ tag }) => tag);
}

export function pageLocale(asked: string | undefined, acceptLanguage: string | undefined): PageLocale {
  if (asked) {
    const explicit = localeOf(asked);
    if (explicit) return { ...explicit, asked: explicit.locale };
  }
  for (const tag of accepted(acceptLanguage ?? '')) {
    const found = tag === '*' ? undefined : localeOf(tag);
    if (found) return found;
  }
  return { language: 'en', locale: 'en-US', texts: en };
}

/** The `?locale=` a page's links and forms carry on, so the next page speaks the same language. */
export function askedLocale(value: unknown): string | undefined {
  return typeof value === 'string' && value.length <= 35 ? canonical(value) : undefined;
}
