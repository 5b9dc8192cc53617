import { FALLBACK_LANGUAGE, LANGUAGES, RTL_LANGUAGES, type Language } from '@meetcast/contracts';
import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import HttpBackend from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';
import { setApiWording } from '../lib/api';
import { writePreference } from '../lib/preferences';

/** Namespaces every page needs; a page's own namespaces load with its code (routes.ts). */
export const CORE_NAMESPACES = ['common', 'shell'] as const;

export function directionOf(language: string | undefined): 'ltr' | 'rtl' {
  const base = (language ?? FALLBACK_LANGUAGE).split('-')[0] as Language;
  return RTL_LANGUAGES.includes(base) ? 'rtl' : 'ltr';
}

/** Arabic turns the whole document right-to-left; the choice is kept as `rtlClass`. */
function applyLanguage(language: string | undefined) {
  const base = (language ?? FALLBACK_LANGUAGE).split('-')[0] ?? FALLBACK_LANGUAGE;
  const direction = directionOf(base);
  document.documentElement.setAttribute('lang', base);
  document.documentElement.setAttribute('dir', direction);
  writePreference('rtlClass', direction);
}

i18n.on('languageChanged', applyLanguage);

// Spec section 9: files at /locales/{lng}/{ns}.json, detection order, fallback en, up to 5 retries
// starting at 350 ms and doubling (i18next's BackendConnector doubles the wait), 10 parallel reads.
void i18n
  .use(HttpBackend)
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    supportedLngs: [...LANGUAGES],
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    fallbackLng: FALLBACK_LANGUAGE,
    ns: [...CORE_NAMESPACES],
    defaultNS: 'common',
    fallbackNS: 'common',
    backend: { loadPath: '/locales/{{lng}}/{{ns}}.json' },
    detection: {
      order: ['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag'],
      lookupQuerystring: 'lng',
      lookupCookie: 'i18next',
      lookupLocalStorage: 'i18nextLng',
      lookupSessionStorage: 'i18nextLng',
      caches: ['localStorage', 'cookie'],
      cookieOptions: { path: '/', sameSite: 'lax' },
    },
    maxRetries: 5,
    retryTimeout: 350,
    maxParallelReads: 10,
    interpolation: {
      // React escapes; this only isolates each value (Unicode FSI…PDI, what <bdi> does) inside
      // right-to-left text, so a left-to-right name or address keeps its order and its neighbours.
      escapeValue: true,
      escape: (value: string) => (directionOf(i18n.language) === 'rtl' ? `\u2068${value}\u2069` : value),
    },
    returnNull: false,
  });

setApiWording({
  language: () => i18n.resolvedLanguage,
  networkFailure: () => i18n.t('common:errors.network'),
  unexpectedAnswer: (httpStatus) => i18n.t('common:errors.unexpected', { status: httpStatus }),
});

export default i18n;
