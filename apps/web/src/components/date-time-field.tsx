import 'flatpickr/dist/flatpickr.css';
import './date-time-field.css';
import flatpickr from 'flatpickr';
import type { CustomLocale } from 'flatpickr/dist/types/locale';
import type { Instance } from 'flatpickr/dist/types/instance';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../lib/cn';

type LocaleModule = { default: Record<string, CustomLocale | undefined> };
const LOCALES: Record<string, [string, () => Promise<LocaleModule>]> = {
  ar: ['ar', () => import('flatpickr/dist/esm/l10n/ar.js') as Promise<LocaleModule>],
  da: ['da', () => import('flatpickr/dist/esm/l10n/da.js') as Promise<LocaleModule>],
  de: ['de', () => import('flatpickr/dist/esm/l10n/de.js') as Promise<LocaleModule>],
  el: ['gr', () => import('flatpickr/dist/esm/l10n/gr.js') as Promise<LocaleModule>],
  es: ['es', () => import('flatpickr/dist/esm/l10n/es.js') as Promise<LocaleModule>],
  fr: ['fr', () => import('flatpickr/dist/esm/l10n/fr.js') as Promise<LocaleModule>],
  hu: ['hu', () => import('flatpickr/dist/esm/l10n/hu.js') as Promise<LocaleModule>],
  it: ['it', () => import('flatpickr/dist/esm/l10n/it.js') as Promise<LocaleModule>],
  ja: ['ja', () => import('flatpickr/dist/esm/l10n/ja.js') as Promise<LocaleModule>],
  pl: ['pl', () => import('flatpickr/dist/esm/l10n/pl.js') as Promise<LocaleModule>],
  pt: ['pt', () => import('flatpickr/dist/esm/l10n/pt.js') as Promise<LocaleModule>],
  ru: ['ru', () => import('flatpickr/dist/esm/l10n/ru.js') as Promise<LocaleModule>],
  sv: ['sv', () => import('flatpickr/dist/esm/l10n/sv.js') as Promise<LocaleModule>],
  tr: ['tr', () => import('flatpickr/dist/esm/l10n/tr.js') as Promise<LocaleModule>],
  zh: ['zh', () => import('flatpickr/dist/esm/l10n/zh.js') as Promise<LocaleModule>],
};

export interface DateTimeFieldProps {
  label: string;
  /** A wall-clock Date (see zoned-time.ts), or null when nothing is chosen. */
  value: Date | null;
  onChange(value: Date | null): void;
  /** Said under the field; the picker never clears a typed value silently, the form judges it. */
  error?: string | undefined;
  name: string;
  /** Dates only (all-day events). */
  isDateOnly?: boolean;
}

const INPUT_CLASSES =
  'block w-full rounded-lg border bg-white px-3 py-2.5 text-sm text-slate-900 shadow-sm transition-colors focus:outline-none focus:ring-2 dark:bg-slate-900 dark:text-slate-100';

/**
 * A flatpickr date-time picker in the spec's format `Y-m-d H:i`, inside the dialog (static). While its
 * calendar is open, Escape closes the calendar only, not the dialog around it.
 */
export function DateTimeField({ label, value, onChange, error, name, isDateOnly = false }: DateTimeFieldProps) {
  const { i18n } = useTranslation();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const picker = useRef<Instance | null>(null);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  useEffect(() => {
    if (!input.current) return;
    // Capturing on window runs before the dialog's own Escape handler (on document).
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      event.preventDefault();
      instance.close();
    };
    const instance = flatpickr(input.current, {
      enableTime: !isDateOnly,
      time_24hr: true,
      dateFormat: isDateOnly ? 'Y-m-d' : 'Y-m-d H:i',
      allowInput: true,
      static: true,
      disableMobile: true,
      onChange: ([date]) => onChangeRef.current(date ?? null),
      onOpen: () => window.addEventListener('keydown', closeOnEscape, true),
      onClose: () => window.removeEventListener('keydown', closeOnEscape, true),
    });
    picker.current = instance;
    return () => {
      window.removeEventListener('keydown', closeOnEscape, true);
      instance.destroy();
      picker.current = null;
    };
  }, [isDateOnly]);

  useEffect(() => {
    const language = (i18n.resolvedLanguage ?? 'en').split('-')[0] ?? 'en';
    const entry = LOCALES[language];
    if (!entry) {
      picker.current?.set('locale', 'default');
      return;
    }
    let isCurrent = true;
    void entry[1]().then((module) => {
      const locale = module.default[entry[0]];
      if (isCurrent && locale) picker.current?.set('locale', locale);
    });
    return () => {
      isCurrent = false;
    };
  }, [i18n.resolvedLanguage]);

  useEffect(() => {
    const current = picker.current?.selectedDates[0];
    if (value?.getTime() === current?.getTime()) return;
    picker.current?.setDate(value ?? [], false);
  }, [value]);

  const errorId = `${inputId}-error`;
  return (
    <div className="space-y-1.5">
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        {label}
      </label>
      <input
        ref={input}
        id={inputId}
        name={name}
        autoComplete="off"
        placeholder={isDateOnly ? 'YYYY-MM-DD' : 'YYYY-MM-DD HH:MM'}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={cn(
          INPUT_CLASSES,
          error
            ? 'border-red-500 focus:ring-red-500/30'
            : 'border-slate-300 focus:border-primary-500 focus:ring-primary-500/30 dark:border-slate-600',
        )}
      />
      {error && (
        <p id={errorId} role="alert" className="text-xs font-medium text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}
