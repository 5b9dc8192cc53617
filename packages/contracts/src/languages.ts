/** The 16 languages of the product spec (section 1); English is the source and the fallback. */
export const LANGUAGES = [
  'en',
  'zh',
  'da',
  'fr',
  'de',
  'el',
  'hu',
  'it',
  'ja',
  'pl',
  'pt',
  'ru',
  'es',
  'sv',
  'tr',
  'ar',
] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'en';
export const RTL_LANGUAGES: readonly Language[] = ['ar'];

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Picks a supported language from a tag such as `pt-BR` or an Accept-Language header. */
export function matchLanguage(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  for (const part of header.split(',')) {
    const base = part.split(';')[0]?.trim().toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return undefined;
}

/**
 * Plural texts follow i18next on the web and the server alike: `key_one`, `key_other`, … one per
 * plural category the language's rules use (Intl.PluralRules), picked by the `count` parameter.
 */
export const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** The plural base of a key when the catalog gives it plural forms (`key_other` is there). */
export function pluralBase(key: string, catalog: { has(key: string): boolean }): string | undefined {
  const base = key.replace(PLURAL_SUFFIX, '');
  return base !== key && catalog.has(`${base}_other`) ? base : undefined;
}

/**
 * The keys a language's catalog must hold, each with the English text it is compared with: English's
 * plain keys, and for each plural key exactly the forms the language's plural rules use, compared with
 * English's form of the same name or else its `_other`.
 */
export function expectedPluralKeys(english: Map<string, string>, language: string): Map<string, string> {
  const expected = new Map<string, string>();
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  for (const [key, text] of english) {
    const base = pluralBase(key, english);
    if (!base) expected.set(key, text);
    else if (key === `${base}_other`) {
      for (const category of categories) expected.set(`${base}_${category}`, english.get(`${base}_${category}`) ?? text);
    }
  }
  return expected;
}
