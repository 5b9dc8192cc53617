import { ChevronDownIcon, GlobeIcon } from 'lucide-react';
import { LANGUAGES, type Language } from '@meetcast/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import { LANGUAGE_NAMES } from '../../lib/language-names';

/** A native select: tiny, keyboard- and screen-reader-friendly; i18next keeps the choice (i18nextLng). */
export function LanguagePicker({ className }: { className?: string }) {
  const { t, i18n } = useTranslation('shell');
  const id = useId();
  const current = ((i18n.language ?? 'en').split('-')[0] ?? 'en') as Language;
  return (
    <div className={cn('relative flex items-center', className)}>
      <label htmlFor={id} className="sr-only">
        {t('language.label')}
      </label>
      <GlobeIcon className="pointer-events-none absolute start-2.5 size-4 text-slate-500 dark:text-slate-400" />
      <select
        id={id}
        value={current}
        onChange={(event) => void i18n.changeLanguage(event.target.value)}
        className="h-10 cursor-pointer appearance-none rounded-full border border-transparent bg-transparent ps-8 pe-8 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-primary-500 dark:text-slate-200 dark:hover:bg-slate-800 [&>option]:bg-white [&>option]:text-slate-900 dark:[&>option]:bg-slate-900 dark:[&>option]:text-slate-100"
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
      <ChevronDownIcon className="pointer-events-none absolute end-2.5 size-4 text-slate-500 dark:text-slate-400" />
    </div>
  );
}
