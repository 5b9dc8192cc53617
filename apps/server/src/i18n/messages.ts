import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { FALLBACK_LANGUAGE, isLanguage, LANGUAGES, pluralBase, type Language } from '@meetcast/contracts';
import i18next from 'i18next';
import accounts from './locales/en/accounts.json' with { type: 'json' };
import calendar from './locales/en/calendar.json' with { type: 'json' };
import admin from './locales/en/admin.json' with { type: 'json' };
import common from './locales/en/common.json' with { type: 'json' };
import meetings from './locales/en/meetings.json' with { type: 'json' };
import notifications from './locales/en/notifications.json' with { type: 'json' };
import oidc from './locales/en/oidc.json' with { type: 'json' };
import channels from './locales/en/channels.json' with { type: 'json' };
import contactUs from './locales/en/contact-us.json' with { type: 'json' };
import contacts from './locales/en/contacts.json' with { type: 'json' };
import profile from './locales/en/profile.json' with { type: 'json' };
import rooms from './locales/en/rooms.json' with { type: 'json' };
import streamConnections from './locales/en/stream-connections.json' with { type: 'json' };
import broadcasts from './locales/en/broadcasts.json' with { type: 'json' };
import viewerChat from './locales/en/viewer-chat.json' with { type: 'json' };

// English is the source of truth: the keys are typed from its files. Each feature owns one file
// per language under locales/{lng}/{feature}.json; a new feature adds its English file here.
const english = {
  ...common,
  ...accounts,
  ...notifications,
  ...oidc,
  ...meetings,
  ...calendar,
  ...contacts,
  ...channels,
  ...profile,
  ...contactUs,
  ...admin,
  ...rooms,
  ...streamConnections,
  ...broadcasts,
  ...viewerChat,
};

type Catalog = Record<string, string>;
type EnglishKey = keyof typeof english;
type PluralCategory = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
/** A plural text is asked for by its base key (`admin.users_deleted`), never by one of its forms. */
type BaseKey<Key extends string> = Key extends `${infer Base}_${PluralCategory}`
  ? `${Base}_other` extends EnglishKey
    ? Base
    : Key
  : Key;
export type MessageKey = BaseKey<EnglishKey>;
/** A text with plural forms takes its number as `count` (i18next picks the form from it). */
export type MessageParams = Record<string, string | number>;

const LOCALES_DIR = new URL('./locales/', import.meta.url);

function loadCatalog(language: Language): Catalog {
  if (language === FALLBACK_LANGUAGE) return english;
  const folder = new URL(`./${language}/`, LOCALES_DIR);
  if (!existsSync(folder)) return {};
  const catalog: Catalog = {};
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.json'))) {
    Object.assign(catalog, JSON.parse(readFileSync(new URL(file, folder), 'utf8')) as Catalog);
  }
  return catalog;
}

const catalogs = new Map<Language, Catalog>(LANGUAGES.map((language) => [language, loadCatalog(language)]));
const englishKeys = new Set(Object.keys(english));
const messageKeys = new Set(Object.keys(english).map((key) => pluralBase(key, englishKeys) ?? key));

// The same engine and key convention as the web: flat keys with dots in them, one namespace, plural
// forms by Intl.PluralRules. Values are not escaped here: HTML texts escape their values themselves.
const engine = i18next.createInstance();
void engine.init({
  initAsync: false,
  showSupportNotice: false,
  resources: Object.fromEntries([...catalogs].map(([language, catalog]) => [language, { translation: catalog }])),
  supportedLngs: [...LANGUAGES],
  fallbackLng: FALLBACK_LANGUAGE,
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  // A value not given stays visible as its placeholder instead of vanishing from the sentence.
  missingInterpolationHandler: (_text: string, match: RegExpExecArray) => match[0],
});

export function translate(language: Language, key: MessageKey, params: MessageParams = {}): string {
  return engine.t(key, { ...params, lng: language });
}

export function isMessageKey(key: string): key is MessageKey {
  return messageKeys.has(key);
}

/** English as written in its files, plural forms as keys of their own (`key_one`, `key_other`). */
export function englishCatalog(): Catalog {
  return english;
}

/** A language's own texts as written in its files (no fallback to English). */
export function catalogFor(language: Language): Catalog {
  return catalogs.get(language) ?? {};
}

/** A person's chosen language for what we send them (mail, notifications), English when unset. */
export const languageOf = (person: { language: string }): Language =>
  isLanguage(person.language) ? person.language : 'en';
