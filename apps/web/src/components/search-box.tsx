import { SearchIcon } from 'lucide-react';
import { cn } from '../lib/cn';

/** A search input with its icon; the label names it for screen readers and shows as placeholder. */
export function SearchBox({
  value,
  onChange,
  label,
  className,
}: {
  value: string;
  onChange: (text: string) => void;
  label: string;
  className?: string;
}) {
  return (
    <label className={cn('relative block min-w-56 flex-1', className)}>
      <span className="sr-only">{label}</span>
      <SearchIcon className="pointer-events-none absolute start-3 top-1/2 size-4 -translate-y-1/2 text-slate-500" />
      <input
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={label}
        maxLength={100}
        className="block w-full rounded-lg border border-slate-300 bg-white py-2.5 ps-9 pe-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-primary-500 focus:ring-2 focus:ring-primary-500/30 focus:outline-none dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-400"
      />
    </label>
  );
}

/** A checkbox that narrows a list ("only my favourites"). */
export function FilterCheckbox({
  checked,
  onChange,
  label,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
}) {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="size-4 rounded border-slate-300 text-primary-600 focus:ring-primary-500"
      />
      {label}
    </label>
  );
}
