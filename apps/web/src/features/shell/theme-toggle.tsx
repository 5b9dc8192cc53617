import { MonitorIcon, MoonIcon, SunIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import {
  isTheme,
  PREFERENCE_DEFAULTS,
  THEMES,
  usePreference,
  writePreference,
  type Theme,
} from '../../lib/preferences';

const ICONS = { light: SunIcon, dark: MoonIcon, system: MonitorIcon } as const;

export function nextTheme(theme: Theme): Theme {
  return THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length] ?? PREFERENCE_DEFAULTS.theme;
}

/** Cycles light → dark → system; the choice is kept under `theme`. */
export function ThemeToggle({ className }: { className?: string }) {
  const { t } = useTranslation('shell');
  const stored = usePreference('theme');
  const theme: Theme = isTheme(stored) ? stored : PREFERENCE_DEFAULTS.theme;
  const next = nextTheme(theme);
  const Icon = ICONS[theme];
  const label = t('theme.toggle', { current: t(`theme.${theme}`), next: t(`theme.${next}`) });
  return (
    <button
      type="button"
      onClick={() => writePreference('theme', next)}
      aria-label={label}
      title={label}
      data-theme-choice={theme}
      className={cn(
        'inline-flex size-10 items-center justify-center rounded-full text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-primary-500 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white',
        className,
      )}
    >
      <Icon className="size-5" />
    </button>
  );
}
