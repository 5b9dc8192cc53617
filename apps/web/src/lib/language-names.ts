import type { Language } from '@meetcast/contracts';

/** Each language in its own name, so that anyone can find theirs whatever is shown now. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  zh: '中文',
  da: 'Dansk',
  fr: 'Français',
  de: 'Deutsch',
  el: 'Ελληνικά',
  hu: 'Magyar',
  it: 'Italiano',
  ja: '日本語',
  pl: 'Polski',
  pt: 'Português',
  ru: 'Русский',
  es: 'Español',
  sv: 'Svenska',
  tr: 'Türkçe',
  ar: 'العربية',
};
