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
