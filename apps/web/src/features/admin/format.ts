import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** Dates and numbers in the reader's language and time zone. */
export function useFormat() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  return useMemo(() => formatters(language), [language]);
}

function formatters(language: string) {
  const dateTime = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium' });
  const shortDate = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short' });
  const time = new Intl.DateTimeFormat(language, { timeStyle: 'short' });
  const number = new Intl.NumberFormat(language);
  return {
    language,
    dateTime: (seconds: number | null | undefined) => (seconds ? dateTime.format(new Date(seconds * 1000)) : ''),
    date: (seconds: number) => date.format(new Date(seconds * 1000)),
    shortDate: (seconds: number) => shortDate.format(new Date(seconds * 1000)),
    time: (seconds: number) => time.format(new Date(seconds * 1000)),
    number: (value: number) => number.format(value),
  };
}
