import { useSyncExternalStore } from 'react';

/**
 * Interface preferences kept in the browser under the spec's keys (section 3 and 9), with its defaults.
 * public/preferences-init.js reads `theme` and `rtlClass` before the app starts; keep them in sync.
 */
export const PREFERENCE_DEFAULTS = {
  theme: 'dark',
  menu: 'vertical',
  layout: 'full',
  rtlClass: 'ltr',
  animation: 'fade-in-left',
  navbar: 'sticky',
  semidark: 'false',
  sidebar: 'true',
  i18nextLng: 'en',
} as const;

export type PreferenceKey = keyof typeof PREFERENCE_DEFAULTS;
export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];

const listeners = new Set<() => void>();

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

export function readPreference(key: PreferenceKey): string {
  return storage()?.getItem(key) ?? PREFERENCE_DEFAULTS[key];
}

export function writePreference(key: PreferenceKey, value: string) {
  storage()?.setItem(key, value);
  listeners.forEach((listener) => listener());
}

/** Stores every missing key with its default, so the browser always holds the full set. */
export function seedPreferences() {
  const store = storage();
  if (!store) return;
  for (const [key, value] of Object.entries(PREFERENCE_DEFAULTS)) {
    if (store.getItem(key) === null) store.setItem(key, value);
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key in PREFERENCE_DEFAULTS) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function usePreference(key: PreferenceKey): string {
  return useSyncExternalStore(
    subscribe,
    () => readPreference(key),
    () => PREFERENCE_DEFAULTS[key],
  );
}

export function isTheme(value: string): value is Theme {
  return (THEMES as readonly string[]).includes(value);
}

export function readTheme(): Theme {
  const value = readPreference('theme');
  return isTheme(value) ? value : PREFERENCE_DEFAULTS.theme;
}
