import type { LocaleInput, MoreLinkMountArg } from '@fullcalendar/core';
import { useEffect, useRef, useState } from 'react';
import './calendar-theme.css';

/** Class of the element around a FullCalendar: our light and dark colours (calendar-theme.css). */
export const CALENDAR_THEME_CLASS = 'meetcast-calendar';

/**
 * Dark text on light entry colours, white on dark ones (WCAG relative luminance): FullCalendar
 * writes white on every coloured block (all-day entries, and timed ones that cross midnight).
 */
export function textColorOn(hex: string): string {
  const channel = (offset: number) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return luminance > 0.18 ? '#0f172a' : '#ffffff';
}

type LocaleModule = { default: LocaleInput };
const LOCALES: Record<string, () => Promise<LocaleModule>> = {
  ar: () => import('@fullcalendar/core/locales/ar'),
  da: () => import('@fullcalendar/core/locales/da'),
  de: () => import('@fullcalendar/core/locales/de'),
  el: () => import('@fullcalendar/core/locales/el'),
  es: () => import('@fullcalendar/core/locales/es'),
  fr: () => import('@fullcalendar/core/locales/fr'),
  hu: () => import('@fullcalendar/core/locales/hu'),
  it: () => import('@fullcalendar/core/locales/it'),
  ja: () => import('@fullcalendar/core/locales/ja'),
  pl: () => import('@fullcalendar/core/locales/pl'),
  pt: () => import('@fullcalendar/core/locales/pt'),
  ru: () => import('@fullcalendar/core/locales/ru'),
  sv: () => import('@fullcalendar/core/locales/sv'),
  tr: () => import('@fullcalendar/core/locales/tr'),
  zh: () => import('@fullcalendar/core/locales/zh-cn'),
};

/** FullCalendar's own translations (day names, "more"), loaded for the reader's language only. */
export function useCalendarLocale(language: string): LocaleInput | undefined {
  const [loaded, setLoaded] = useState<{ language: string; locale: LocaleInput }>();
  useEffect(() => {
    const load = LOCALES[language];
    if (!load) return;
    let isCurrent = true;
    void load().then((module) => {
      if (isCurrent) setLoaded({ language, locale: module.default });
    });
    return () => {
      isCurrent = false;
    };
  }, [language]);
  return loaded?.language === language ? loaded.locale : undefined;
}

/** FullCalendar marks its toolbar icons role="img" without a name; the buttons carry the names. */
export function useDecorativeCalendarIcons<T extends HTMLElement>() {
  const container = useRef<T>(null);
  useEffect(() => {
    const root = container.current;
    if (!root) return;
    const hide = () =>
      root.querySelectorAll('.fc-icon[role="img"]').forEach((icon) => {
        icon.removeAttribute('role');
        icon.setAttribute('aria-hidden', 'true');
      });
    hide();
    const observer = new MutationObserver(hide);
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
  return container;
}

/**
 * FullCalendar's "+N more" of a crowded day is an `<a>` without `href` that it marks
 * `aria-expanded`, which only fits a control: it opens the day's list, so it is announced as a button.
 */
export function markMoreLinkAsButton({ el }: MoreLinkMountArg) {
  el.setAttribute('role', 'button');
}
