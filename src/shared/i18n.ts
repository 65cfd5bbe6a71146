/**
 * The elements' texts in the languages Paykit speaks besides English (whose texts are the elements' own): one
 * module per language, loaded the first time an element needs it, so a page pays only for the language it shows.
 * `strings` on an element still replaces any text, in any language.
 */
import type { ElementTexts, LocaleTexts } from '../locales/locale-texts.ts';

const LOADERS: Record<string, () => Promise<{ default: LocaleTexts }>> = {
  es: () => import('../locales/es.ts'),
  fr: () => import('../locales/fr.ts'),
  de: () => import('../locales/de.ts'),
};

const loaded = new Map<string, LocaleTexts>();
const loading = new Map<string, Promise<unknown>>();

/** The language of a locale when Paykit has texts for it ('fr-CA' → 'fr'); undefined for English and the rest. */
export function translatedLanguage(locale: string): string | undefined {
  const language = locale.split('-')[0]!.toLowerCase();
  return language in LOADERS ? language : undefined;
}

/** An element's texts in `language`, once loaded. */
export function textsIn(language: string, element: ElementTexts): Readonly<Record<string, string>> | undefined {
  return loaded.get(language)?.[element];
}

/** Loads a language's texts (once); resolves when they are there. */
export function loadTexts(language: string): Promise<unknown> {
  let done = loading.get(language);
  if (!done) {
    done = LOADERS[language]!().then(({ default: texts }) => loaded.set(language, texts));
    loading.set(language, done);
    // A failed load (offline) is forgotten, so the next element asks again; meanwhile the texts stay English.
    done.catch(() => loading.delete(language));
  }
  return done;
}

/** Makes a language's texts available at once: a server renderer cannot wait for a module to load. */
export function registerTexts(language: string, texts: LocaleTexts): void {
  loaded.set(language, texts);
}
