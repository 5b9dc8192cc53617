import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import type { TwitchCategory } from './destination-requests';
import { useTwitchCategories } from './live-api';

/**
 * Twitch's category as a combobox (ARIA 1.2, list autocomplete): typing searches Helix through the
 * server once typing pauses; arrows move through the answers, Enter picks, Escape closes the list
 * (and only the list, not a dialog around it).
 */
export function TwitchCategoryField({
  connectionId,
  value,
  onChange,
}: {
  connectionId: number;
  value: TwitchCategory | null;
  onChange(category: TwitchCategory | null): void;
}) {
  const { t } = useTranslation('streaming');
  const inputId = useId();
  const listId = `${inputId}-list`;
  const hintId = `${inputId}-hint`;
  const [text, setText] = useState(value?.name ?? '');
  const [isOpen, setIsOpen] = useState(false);
  // No option is active until an arrow key moves into the list (-1).
  const [active, setActive] = useState(-1);
  const typed = text.trim();
  const query = useDebouncedValue(value && typed === value.name ? '' : typed, 300);
  const search = useTwitchCategories(connectionId, query);
  const options = search.data ?? [];
  const isListShown = isOpen && query !== '' && options.length > 0;

  useEffect(() => {
    if (!isOpen) return undefined;
    // Capturing on window runs before a dialog's own Escape handler (on document).
    const closeOnEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      event.preventDefault();
      setIsOpen(false);
    };
    window.addEventListener('keydown', closeOnEscape, true);
    return () => window.removeEventListener('keydown', closeOnEscape, true);
  }, [isOpen]);

  const choose = (category: TwitchCategory) => {
    onChange(category);
    setText(category.name);
    setIsOpen(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!isListShown) {
        setIsOpen(true);
        return;
      }
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) =>
        current < 0 && step < 0 ? options.length - 1 : (current + step + options.length) % options.length,
      );
    } else if (event.key === 'Enter' && isListShown && active >= 0) {
      event.preventDefault();
      const option = options[Math.min(active, options.length - 1)];
      if (option) choose(option);
    }
  };

  const status = !query
    ? value
      ? t('twitch_category.chosen', { name: value.name })
      : t('twitch_category.hint')
    : search.isError
      ? search.error.message
      : search.isFetching
        ? t('twitch_category.searching')
        : options.length === 0
          ? t('twitch_category.none')
          : t('twitch_category.pick');

  return (
    <div className="relative space-y-1.5">
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        {t('twitch_category.label')}
      </label>
      <input
        id={inputId}
        role="combobox"
        aria-expanded={isListShown}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-describedby={hintId}
        aria-activedescendant={isListShown && active >= 0 ? `${listId}-${active}` : undefined}
        autoComplete="off"
        dir="auto"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setIsOpen(true);
          setActive(-1);
          if (value) onChange(null);
        }}
        onFocus={() => setIsOpen(true)}
        onBlur={() => setIsOpen(false)}
        onKeyDown={onKeyDown}
        className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-primary-500 focus:ring-2 focus:ring-primary-500/30 focus:outline-none dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
      />
      <p id={hintId} aria-live="polite" className="text-xs text-slate-600 dark:text-slate-400">
        {status}
      </p>
      <ul
        id={listId}
        role="listbox"
        aria-label={t('twitch_category.label')}
        hidden={!isListShown}
        className="absolute inset-x-0 top-[4.5rem] z-20 max-h-56 overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 shadow-lg dark:border-slate-700 dark:bg-slate-800"
      >
        {options.map((option, index) => (
          <li
            key={option.id}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            dir="auto"
            // Chosen before the input's blur closes the list.
            onMouseDown={(event) => {
              event.preventDefault();
              choose(option);
            }}
            onMouseEnter={() => setActive(index)}
            className={cn(
              'cursor-pointer px-3 py-2 text-sm text-slate-900 ltr:text-left rtl:text-right dark:text-slate-100',
              index === active && 'bg-primary-50 text-primary-900 dark:bg-primary-950 dark:text-primary-100',
            )}
          >
            {option.name}
          </li>
        ))}
      </ul>
    </div>
  );
}
