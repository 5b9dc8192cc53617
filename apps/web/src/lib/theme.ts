import { useEffect } from 'react';
import { readTheme, usePreference, isTheme, type Theme } from './preferences';

const DARK_QUERY = '(prefers-color-scheme: dark)';

export function resolveTheme(theme: Theme): 'light' | 'dark' {
  if (theme === 'system') return window.matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
  return theme;
}

export function applyTheme(theme: Theme) {
  const isDark = resolveTheme(theme) === 'dark';
  const root = document.documentElement;
  root.classList.toggle('dark', isDark);
  root.style.colorScheme = isDark ? 'dark' : 'light';
}

/** Keeps the `dark` class on <html> in step with the preference; "system" follows the device live. */
export function useThemeSync() {
  const stored = usePreference('theme');
  const theme: Theme = isTheme(stored) ? stored : readTheme();
  useEffect(() => {
    applyTheme(theme);
    if (theme !== 'system') return;
    const media = window.matchMedia(DARK_QUERY);
    const onChange = () => applyTheme('system');
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, [theme]);
}
