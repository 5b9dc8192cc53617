import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { FALLBACK_LANGUAGE, isLanguage, LANGUAGES, type Language } from '@meetcast/contracts';
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

export type MessageKey = keyof typeof english;
export type MessageParams = Record<string, string | number>;
type Catalog = Partial<Record<MessageKey, string>>;

const LOCALES_DIR = new URL('./locales/', import.meta.url);

function loadCatalog(language: Language): Catalog {
  if (language === FALLBACK_LANGUAGE) return english;
  const folder = new URL(`./${language}/`, LOCALES_DIR);
  if (!existsSync(folder)) return {};
  const catalog: Record<string, string> = {};
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.json'))) {
    Object.assign(catalog, JSON.parse(readFileSync(new URL(file, folder), 'utf8')) as Record<string, string>);
  }
  return catalog as Catalog;
}

const catalogs = new Map<Language, Catalog>(LANGUAGES.map((language) => [language, loadCatalog(language)]));

export function translate(language: Language, key: MessageKey, params: MessageParams = {}): string {
  const template = catalogs.get(language)?.[key] ?? english[key];
  if (!template.includes('{{')) return template;
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => String(params[name] ?? whole));
}

export function englishCatalog(): Record<MessageKey, string> {
  return english;
}

export function catalogFor(language: Language): Catalog {
  return catalogs.get(language) ?? {};
}

/** A person's chosen language for what we send them (mail, notifications), English when unset. */
export const languageOf = (person: { language: string }): Language =>
  isLanguage(person.language) ? person.language : 'en';
